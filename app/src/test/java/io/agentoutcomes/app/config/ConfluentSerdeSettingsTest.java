package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every setting of Confluent's Avro serde and registry client is honoured, or refused at start with its name and why. */
class ConfluentSerdeSettingsTest {
    /**
     * The names Confluent's config classes declare: AbstractKafkaSchemaSerDeConfig.baseConfigDef(), KafkaAvroSerializerConfig,
     * KafkaAvroDeserializerConfig and SchemaRegistryClientConfig (its client SSL settings under schema.registry., its
     * missing-entry caches), as of Confluent Platform 8.0.
     */
    static final List<String> CONFLUENT = List.of(
            "schema.registry.url", "max.schemas.per.subject", "normalize.schemas", "auto.register.schemas",
            "propagate.schema.tags", "use.schema.id", "id.compatibility.strict", "use.latest.version",
            "latest.compatibility.strict", "latest.cache.size", "latest.cache.ttl.sec", "use.latest.with.metadata",
            "schema.format", "rule.executors", "rule.actions", "rule.service.loader.enable",
            "basic.auth.credentials.source", "bearer.auth.credentials.source", "schema.registry.basic.auth.user.info",
            "basic.auth.user.info", "bearer.auth.token", "bearer.auth.issuer.endpoint.url", "bearer.auth.client.id",
            "bearer.auth.client.secret", "bearer.auth.scope", "bearer.auth.scope.claim.name", "bearer.auth.sub.claim.name",
            "bearer.auth.identity.pool.id", "bearer.auth.logical.cluster", "bearer.auth.cache.expiry.buffer.seconds",
            "bearer.auth.custom.provider.class", "context.name.strategy", "key.subject.name.strategy",
            "key.schema.id.serializer", "key.schema.id.deserializer", "value.subject.name.strategy",
            "value.schema.id.serializer", "value.schema.id.deserializer", "schema.reflection", "proxy.host", "proxy.port",
            "http.connect.timeout.ms", "http.read.timeout.ms", "max.retries", "retries.wait.ms", "retries.max.wait.ms",
            "schema.registry.http.connect.timeout.ms", "schema.registry.http.read.timeout.ms", "schema.registry.max.retries",
            "schema.registry.retries.wait.ms", "schema.registry.retries.max.wait.ms",
            "missing.id.cache.ttl.sec", "missing.version.cache.ttl.sec", "missing.schema.cache.ttl.sec", "missing.cache.size",
            "avro.reflection.allow.null", "avro.use.logical.type.converters", "avro.remove.java.properties",
            "specific.avro.reader", "specific.avro.key.type", "specific.avro.value.type",
            "schema.registry.ssl.truststore.location", "schema.registry.ssl.truststore.password",
            "schema.registry.ssl.truststore.type", "schema.registry.ssl.keystore.location",
            "schema.registry.ssl.keystore.password", "schema.registry.ssl.keystore.type", "schema.registry.ssl.key.password",
            "schema.registry.ssl.protocol", "schema.registry.ssl.provider", "schema.registry.ssl.cipher.suites",
            "schema.registry.ssl.enabled.protocols", "schema.registry.ssl.keystore.key",
            "schema.registry.ssl.keystore.certificate.chain", "schema.registry.ssl.truststore.certificates",
            "schema.registry.ssl.keymanager.algorithm", "schema.registry.ssl.trustmanager.algorithm",
            "schema.registry.ssl.endpoint.identification.algorithm", "schema.registry.ssl.secure.random.implementation",
            "schema.registry.ssl.engine.factory.class", "request.header.X-Tenant");

    /** A value the serde takes for each honoured setting. */
    private static final Map<String, String> VALID = Map.ofEntries(Map.entry("schema.registry.url", "http://registry:8081"),
            Map.entry("auto.register.schemas", "false"), Map.entry("use.latest.version", "true"),
            Map.entry("latest.cache.ttl.sec", "60"), Map.entry("basic.auth.credentials.source", "USER_INFO"),
            Map.entry("bearer.auth.credentials.source", "STATIC_TOKEN"), Map.entry("specific.avro.reader", "true"),
            Map.entry("schema.registry.ssl.truststore.type", "PKCS12"), Map.entry("schema.registry.ssl.keystore.type", "PKCS12"));

    @Test
    void everyConfluentSerdeSettingIsEitherHonouredOrRefusedByNameWithWhy() {
        List<String> neither = new ArrayList<>();
        for (String name : CONFLUENT) {
            boolean honoured = AvroSerdeConfig.HONOURED.contains(name);
            String value = VALID.getOrDefault(name, name.endsWith(".ms") || name.contains("retries") ? "5" : "x");
            Optional<String> why = ConfluentSerdeSettings.refusal(name, value);
            if (honoured == why.isPresent()) {
                neither.add(name);
            } else if (why.isPresent()) {
                assertThatThrownBy(() -> load(Map.of(name, value)), name)
                        .isInstanceOf(ConfigError.class)
                        .hasMessage("Confluent serde settings this service does not honour (remove them; docs/schemas.md): "
                                + name + ": " + why.get());
            }
        }
        assertThat(neither).as("settings both honoured and refused, or neither").isEmpty();
    }

    @Test
    void honouredSettingsStartAndReachTheSerdeAsGiven() {
        for (String name : CONFLUENT.stream().filter(AvroSerdeConfig.HONOURED::contains).toList()) {
            String value = VALID.getOrDefault(name, name.endsWith(".ms") || name.contains("retries") ? "5" : "x");
            Map<String, String> settings = Map.of(name, value);
            assertThat(load(settings).kafka().get(name)).as(name).isEqualTo(name.equals("schema.registry.url") ? null : value);
        }
    }

    @Test
    void theRefusalNamesEverySettingRefusedAtOnce() {
        assertThatThrownBy(() -> load(Map.of("value.subject.name.strategy",
                "io.confluent.kafka.serializers.subject.RecordNameStrategy", "normalize.schemas", "true",
                "schema.registry.proxy.host", "proxy")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("Confluent serde settings this service does not honour (remove them; docs/schemas.md): "
                        + "normalize.schemas: schemas are registered as the generated classes print them, never normalized; "
                        + "schema.registry.proxy.host: the registry client connects directly; no HTTP proxy; "
                        + "value.subject.name.strategy: subjects are always <topic>-key / <topic>-value (Confluent's TopicNameStrategy)");
    }

    @Test
    void specificAvroReaderFalseIsRefusedBecauseTheServiceAlwaysReadsItsGeneratedClasses() {
        assertThat(load(Map.of("specific.avro.reader", "true")).kafka()).containsEntry("specific.avro.reader", "true");
        assertThatThrownBy(() -> load(Map.of("specific.avro.reader", "false")))
                .hasMessage("Confluent serde settings this service does not honour (remove them; docs/schemas.md): "
                        + "specific.avro.reader: the service always decodes its topics to its generated classes, so false "
                        + "cannot be honoured");
    }

    @Test
    void kafkaClientSettingsStillPassToTheClientsAsTheyAre() {
        Map<String, String> kafka = Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                "ssl.keystore.location", "/etc/kafka/client.p12", "ssl.endpoint.identification.algorithm", "",
                "num.stream.threads", "2", "producer.compression.type", "zstd", "some.plugin.setting", "on");

        assertThat(load(kafka).kafka()).containsAllEntriesOf(kafka);
    }

    private static AppConfig load(Map<String, String> settings) {
        return ConfigLoader.load(Optional.empty(), Map.of(), settings);
    }
}
