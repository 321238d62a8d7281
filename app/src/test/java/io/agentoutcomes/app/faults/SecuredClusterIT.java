package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The service on a secured broker (issue 32): over {@code SASL_SSL} with a SCRAM-SHA-512 user, and over mutual TLS with
 * a client certificate, each with only the settings docs/operations.md lists and with its principal granted exactly
 * the ACLs docs/operations.md lists ({@link #documentedAcls}) and nothing else: a result in, its outcome and its retry
 * out ({@code read_committed}). A missing ACL shows as the service never becoming ready (its log says which).
 */
class SecuredClusterIT {

    /** The ACLs docs/operations.md ("Kafka ACLs") lists for a deployment of {@code applicationId} and {@code prefix}. */
    static List<AclBinding> documentedAcls(String principal, String applicationId, String prefix) {
        List<AclBinding> acls = new ArrayList<>();
        grant(acls, principal, ResourceType.TOPIC, prefix, PatternType.PREFIXED, AclOperation.CREATE, AclOperation.DESCRIBE,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.READ, AclOperation.WRITE);
        grant(acls, principal, ResourceType.TOPIC, applicationId + "-", PatternType.PREFIXED, AclOperation.CREATE,
                AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS, AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE);
        grant(acls, principal, ResourceType.GROUP, applicationId, PatternType.LITERAL, AclOperation.READ, AclOperation.DESCRIBE);
        grant(acls, principal, ResourceType.TRANSACTIONAL_ID, applicationId, PatternType.PREFIXED, AclOperation.WRITE,
                AclOperation.DESCRIBE);
        // the OTLP input's topic is named in full, without topic.prefix (input.otlp.topic, default otlp_spans)
        grant(acls, principal, ResourceType.TOPIC, "otlp_spans", PatternType.LITERAL, AclOperation.CREATE, AclOperation.DESCRIBE,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.READ);
        grant(acls, principal, ResourceType.TOPIC, "_schemas", PatternType.LITERAL, AclOperation.CREATE, AclOperation.DESCRIBE,
                AclOperation.DESCRIBE_CONFIGS, AclOperation.READ, AclOperation.WRITE);
        grant(acls, principal, ResourceType.TRANSACTIONAL_ID, "_schemas-embedded-registry-writer", PatternType.LITERAL,
                AclOperation.WRITE, AclOperation.DESCRIBE);
        return acls;
    }

    private static void grant(List<AclBinding> acls, String principal, ResourceType type, String name, PatternType pattern,
                              AclOperation... operations) {
        for (AclOperation operation : operations) {
            acls.add(new AclBinding(new ResourcePattern(type, name, pattern),
                    new AccessControlEntry("User:" + principal, "*", operation, AclPermissionType.ALLOW)));
        }
    }

    @Test
    void overSaslSslAndMutualTlsWithOnlyTheDocumentedSettingsAndAcls() throws Exception {
        Scenarios.run("SecuredClusterIT: SASL_SSL (SCRAM-SHA-512) and mutual TLS, least-privilege ACLs", "secured-cluster",
                (dir, random, figures, softly) -> {
            try (SecuredBroker kafka = SecuredBroker.start(dir.resolve("kafka"))) {
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.plaintextBootstrap()))) {
                    // both deployments' lists, their shared rows (the OTLP topic, the embedded registry's) once
                    Set<AclBinding> acls = new LinkedHashSet<>(documentedAcls(SecuredBroker.PRINCIPAL, "secured-sasl", "sasl."));
                    acls.addAll(documentedAcls(SecuredBroker.PRINCIPAL, "secured-mtls", "mtls."));
                    admin.createAcls(acls).all().get();
                    figures.put("ACLs granted to User:" + SecuredBroker.PRINCIPAL + " (both deployments)", acls.size());
                }
                for (Deployment deployment : List.of(
                        new Deployment("SASL_SSL", "secured-sasl", "sasl.", kafka.saslSslBootstrap(), kafka.saslSslSettings()),
                        new Deployment("SSL", "secured-mtls", "mtls.", kafka.sslBootstrap(), kafka.mutualTlsSettings()))) {
                    Map<String, String> settings = new LinkedHashMap<>(Scenarios.serviceSettings(1));
                    settings.put("topic.prefix", deployment.prefix());
                    settings.putAll(deployment.security());
                    try (AppInstance app = AppInstance.create(deployment.applicationId(), dir, deployment.bootstrap(),
                            Optional.empty(), deployment.applicationId(), settings)) {
                        Path log = dir.resolve(deployment.applicationId() + ".log");
                        figures.put(deployment.protocol() + ": start to /health 200",
                                app.start(log).awaitHealthy(Duration.ofSeconds(120)));
                        String task = "task-" + deployment.protocol();
                        produce(kafka.plaintextBootstrap(), deployment.prefix() + TopicNames.AGENT_RESULTS_JSON, task,
                                "{\"result\":{\"status\":\"error\",\"error\":\"llm-rate-limit\"}}");
                        ClassifiedOutcome outcome = first(kafka.plaintextBootstrap(), app.registryUrl(),
                                deployment.prefix() + TopicNames.OUTCOMES_CLASSIFIED, ClassifiedOutcome.class);
                        RetryRequest retry = first(kafka.plaintextBootstrap(), app.registryUrl(),
                                deployment.prefix() + TopicNames.RETRY_READY, RetryRequest.class);
                        softly.assertThat(outcome.getTaskId()).as(deployment.protocol() + " outcome's task").isEqualTo(task);
                        softly.assertThat(outcome.getErrorCode()).as(deployment.protocol() + " outcome's code")
                                .isEqualTo("llm-rate-limit");
                        softly.assertThat(retry.getTaskId()).as(deployment.protocol() + " retry's task").isEqualTo(task);
                        softly.assertThat(retry.getNextAttempt()).as(deployment.protocol() + " retry's attempt").isEqualTo(1);
                        String written = Files.readString(log);
                        softly.assertThat(written).as(deployment.protocol() + ": no authorization failure in the log")
                                .doesNotContain("AuthorizationException").doesNotContain("not authorized");
                        // the harness's own "=== start" line shows the command it ran; no line of the service's may
                        softly.assertThat(written.lines().filter(line -> !line.startsWith("=== start"))
                                        .filter(line -> line.contains(kafka.secret())).toList())
                                .as(deployment.protocol() + ": log lines showing the SCRAM or key store password").isEmpty();
                        figures.put(deployment.protocol() + ": outcome and retry of " + task, "read_committed, once each");
                    }
                }
                // topics managed elsewhere: with topic.create=false the service creates nothing and refuses to start,
                // naming every topic it needs that does not exist
                Map<String, String> checkOnly = new LinkedHashMap<>(Scenarios.serviceSettings(1));
                checkOnly.put("topic.prefix", "sasl.");
                checkOnly.put("topic.create", "false");
                checkOnly.putAll(kafka.saslSslSettings());
                try (AppInstance app = AppInstance.create("secured-managed", dir, kafka.saslSslBootstrap(), Optional.empty(),
                        "secured-managed", checkOnly)) {
                    Path log = dir.resolve("secured-managed.log");
                    app.start(log);
                    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                    while (app.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(200);
                    }
                    String written = Files.readString(log);
                    softly.assertThat(app.isAlive()).as("topic.create=false with missing topics: the service stopped").isFalse();
                    // the service's own topics exist (the SASL_SSL deployment made them); its Kafka Streams topics do not
                    softly.assertThat(written).as("the refusal names the missing topics")
                            .contains("Refusing to start: topic.create=false and ")
                            .contains("secured-managed-agent-tasks-changelog (2 partitions, [cleanup.policy=compact])")
                            .doesNotContain("Created topics");
                    figures.put("topic.create=false, the internal topics missing", written.lines()
                            .filter(line -> line.contains("Refusing to start")).findFirst().orElse("(no refusal)"));
                }
            }
        });
    }

    private record Deployment(String protocol, String applicationId, String prefix, String bootstrap,
                              Map<String, String> security) {
    }

    private static void produce(String bootstrap, String topic, String key, String json) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap), new StringSerializer(), new StringSerializer())) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, json);
            record.headers().add("agent-id", "secured-agent".getBytes(StandardCharsets.UTF_8));
            producer.send(record).get();
        }
    }

    /** The first record of {@code topic}, read {@code read_committed} from the start within 60 s. */
    private static <V extends SpecificRecord> V first(String bootstrap, String registryUrl, String topic, Class<V> type) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "secured-check-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    return AvroSerde.specific(type).configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl), false)
                            .deserializer().deserialize(topic, record.value());
                }
            }
        }
        throw new AssertionError("nothing on " + topic + " within 60 s");
    }
}
