package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service on a real broker in the test JVM, with its embedded schema registry. */
class AgentOutcomesServiceTest {
    private static KafkaTestCluster kafka;

    @TempDir
    Path dataDir;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = KafkaTestCluster.start();
    }

    @AfterAll
    static void stopKafka() throws Exception {
        kafka.close();
    }

    @Test
    void serviceRegistersItsSchemasAndTheIdsSurviveARestart() throws Exception {
        AppConfig config = config("restart");
        NodeFinished record = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setStepIndex(1)
                .setAttempt(0).setTimestamp(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli())
                .setResultType(StepResultType.SUCCESS).setPayloadResults("{\"n1\":\"done\"}").build();
        String topic = config.topicPrefix() + "node-finished";
        int registeredId;
        byte[] written;

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            SchemaRegistryClient registry = restClient(service.schemaRegistryUrl());
            registeredId = registry.idOf(topic + "-value", NodeFinished.getClassSchema().toString());
            assertThat(registry.latest(config.topicPrefix() + "agent-results-value").version()).isEqualTo(1);
            assertThat(registry.latest(config.topicPrefix() + "continuation-events-value").version()).isEqualTo(1);

            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl(),
                    AvroSerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
            try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(producerConfig(),
                    new StringSerializer(), AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
                producer.send(new ProducerRecord<>(topic, "job-1", record)).get();
            }
            List<ConsumerRecord<String, NodeFinished>> read = readAll(topic, 1,
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).deserializer());
            assertThat(read).extracting(ConsumerRecord::value).containsExactly(record);
            written = readAll(topic, 1, new ByteArrayDeserializer()).get(0).value();
            assertThat(ByteBuffer.wrap(written, 1, 4).getInt()).isEqualTo(registeredId);
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            SchemaRegistryClient registry = restClient(restarted.schemaRegistryUrl());
            assertThat(registry.schemaById(registeredId)).isEqualTo(NodeFinished.getClassSchema().toString());
            assertThat(registry.register(topic + "-value", NodeFinished.getClassSchema().toString())).isEqualTo(registeredId);
            NodeFinished decoded = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl()), false)
                    .deserializer().deserialize(topic, written);
            assertThat(decoded).isEqualTo(record);
        }
    }

    @Test
    void embeddedDefaultKeepsSchemaIdsAndRecordsAcrossARestartOfBrokerAndService() throws Exception {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.EMBEDDED_KAFKA_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0"));
        NodeFinished record = NodeFinished.newBuilder().setJobId("job-9").setNodeId("n9").setAttempt(2).build();
        int id;
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl()), false);
            try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(
                    Map.of("bootstrap.servers", service.bootstrapServers()), new StringSerializer(), serde.serializer())) {
                producer.send(new ProducerRecord<>("node-finished", "job-9", record)).get();
            }
            id = restClient(service.schemaRegistryUrl()).idOf("node-finished-value", NodeFinished.getClassSchema().toString());
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            awaitHealthy(restarted);
            assertThat(restClient(restarted.schemaRegistryUrl()).idOf("node-finished-value",
                    NodeFinished.getClassSchema().toString())).isEqualTo(id);
            AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl()), false);
            assertThat(read(restarted.bootstrapServers(), "node-finished", 1, new StringDeserializer(), serde.deserializer()))
                    .extracting(ConsumerRecord::value).containsExactly(record);
        }
    }

    @Test
    void undecodableInputGoesToRejectedInputWithItsReasonAndThePipelineKeepsRunning() throws Exception {
        AppConfig config = config("rejected");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            byte[] json = "{\"status\":\"success\"}".getBytes(StandardCharsets.UTF_8);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(config.topicPrefix() + "agent-results", "task-1".getBytes(), json)).get();
            }

            ConsumerRecord<byte[], byte[]> rejected = readAll(config.topicPrefix() + "rejected-input", 1,
                    new ByteArrayDeserializer()).get(0);

            assertThat(rejected.key()).isEqualTo("task-1".getBytes());
            assertThat(rejected.value()).isEqualTo(json);
            Map<String, String> headers = new HashMap<>();
            for (Header header : rejected.headers()) {
                headers.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
            }
            assertThat(headers).containsEntry("__streams.errors.exception",
                    "io.agentoutcomes.avro.serde.UnknownMagicByteException");
            assertThat(headers.get("__streams.errors.message")).startsWith("Unknown magic byte 0x7b");
            assertThat(headers).containsEntry("__streams.errors.topic", config.topicPrefix() + "agent-results");
            assertThat(headers).containsEntry("__streams.errors.offset", "0");
            assertThat(service.streamsState()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(scrapeSum(service, "kafka_stream_task_dropped_records_total", "")).isEqualTo(1.0);
            assertThat(scrapeSum(service, "jvm_threads_live_threads", "")).isPositive();
        }
    }

    @Test
    void aRecordThatCannotBeProcessedGoesToRejectedInputWithItsReasonAndTheNextOneIsProcessed() throws Exception {
        AppConfig config = config("poison", Map.of("replay.max.state.bytes", "4096"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl()), false);
            String topic = config.topicPrefix() + "node-finished";
            try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    serde.serializer())) {
                for (int node = 0; node < 40; node++) {
                    producer.send(new ProducerRecord<>(topic, "job-big", NodeFinished.newBuilder().setJobId("job-big")
                            .setNodeId("node-" + node + "-" + "n".repeat(200)).setStepIndex(node)
                            .setResultType(StepResultType.SUCCESS).build()));
                }
                producer.send(new ProducerRecord<>(topic, "job-small", NodeFinished.newBuilder().setJobId("job-small")
                        .setNodeId("n1").setStepIndex(1).setResultType(StepResultType.SUCCESS).build())).get();
            }

            List<ConsumerRecord<String, io.agentoutcomes.avro.JobReplayState>> states = readAll(
                    config.topicPrefix() + "replay-state", 8 + 1,
                    AvroSerde.specific(io.agentoutcomes.avro.JobReplayState.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl()), false)
                            .deserializer());
            // Eight of these nodes fit in 4096 bytes of replay state; the 32 events after them are rejected, each saying why.
            assertThat(states).filteredOn(record -> record.key().equals("job-small")).hasSize(1);
            assertThat(states).filteredOn(record -> record.key().equals("job-big")).hasSize(8)
                    .extracting(record -> record.value().getCompletedNodeIds().size()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
            List<ConsumerRecord<byte[], byte[]>> rejected = readAll(config.topicPrefix() + "rejected-input", 32,
                    new ByteArrayDeserializer());
            for (ConsumerRecord<byte[], byte[]> record : rejected) {
                Map<String, String> headers = new HashMap<>();
                for (Header header : record.headers()) {
                    headers.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
                }
                assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("job-big");
                assertThat(headers).containsEntry("__streams.errors.exception",
                        "io.agentoutcomes.topology.replay.ReplayBounds$ReplayStateTooLargeException");
                assertThat(headers.get("__streams.errors.message")).startsWith("the replay state of job job-big would be ")
                        .contains("over replay.max.state.bytes 4096");
                assertThat(headers).containsEntry("__streams.errors.topic", topic);
            }
            assertThat(service.streamsState()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    @Test
    void aFatalErrorEndsTheProcessWithANonZeroExitStatus() throws Exception {
        AppConfig config = config("fatal");
        Path log = dataDir.resolve("fatal.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx256m", Main.class.getName(), "run",
                "--bootstrap-servers", kafka.bootstrapServers(), "--application-id", config.applicationId(),
                "--topic-prefix", config.topicPrefix(), "--partitions", "1", "--data-dir", dataDir.toString(),
                "--http-port", "0", "-p", "embedded.registry.port=0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!java.nio.file.Files.readString(log).contains("agent-outcomes is running") && System.nanoTime() < deadline) {
                assertThat(process.isAlive()).as("running; log: %s", java.nio.file.Files.readString(log)).isTrue();
                Thread.sleep(200);
            }
            try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                    Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
                // A source topic deleted under a running application: Kafka Streams cannot go on.
                admin.deleteTopics(List.of(config.topicPrefix() + "agent-results")).all().get();
            }
            assertThat(process.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).as("the process ended").isTrue();
            assertThat(process.exitValue()).isEqualTo(70);
            assertThat(java.nio.file.Files.readString(log)).contains("agent-outcomes: fatal error, stopping (exit status 70)");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void recordsKeyedByAnythingButTheirTaskOrJobAreReKeyedSoCountsAndQueriesStayWhole() throws Exception {
        AppConfig config = config("keys", Map.of(ConfigLoader.TOPIC_PARTITIONS, "4"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> results = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer());
                 KafkaProducer<String, NodeFinished> events = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
                for (int i = 0; i < 5; i++) {
                    AgentResult failure = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("agent-1")
                            .setTaskId("task-1").setDialect(Dialect.VAT_ENVELOPE)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build();
                    // Keys spread over the partitions; one record has no key at all.
                    results.send(new ProducerRecord<>(config.topicPrefix() + "agent-results", i == 4 ? null : "key-" + i,
                            failure)).get();
                }
                events.send(new ProducerRecord<>(config.topicPrefix() + "node-finished", "not-the-job", NodeFinished
                        .newBuilder().setJobId("job-k").setNodeId("n1").setStepIndex(1)
                        .setResultType(StepResultType.SUCCESS).build())).get();
            }

            List<ConsumerRecord<String, io.agentoutcomes.avro.ClassifiedOutcome>> outcomes = readAll(
                    config.topicPrefix() + "outcomes-classified", 6,
                    AvroSerde.specific(io.agentoutcomes.avro.ClassifiedOutcome.class).configured(serde, false).deserializer());
            assertThat(outcomes).filteredOn(record -> record.key().equals("task-1"))
                    .extracting(record -> record.value().getAttempt()).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
            List<ConsumerRecord<String, io.agentoutcomes.avro.ClassifiedOutcome>> dead = readAll(
                    config.topicPrefix() + "dead-letter", 1,
                    AvroSerde.specific(io.agentoutcomes.avro.ClassifiedOutcome.class).configured(serde, false).deserializer());
            assertThat(dead.get(0).value().getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
            HttpResponse<String> job = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.httpUrl() + "/jobs/job-k")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(job.statusCode()).isEqualTo(200);
            assertThat(job.body()).contains("\"completedNodeIds\":[\"n1\"]");
        }
    }

    @Test
    void anUndecodableRecordCarryingCredentialsIsRejectedWithoutThem() throws Exception {
        AppConfig config = config("secret");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            byte[] value = ("\1 raw_headers Authorization: Bearer sk-live-0123456789abcdef").getBytes(StandardCharsets.UTF_8);
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(config.topicPrefix() + "agent-results",
                    "task-1".getBytes(), value);
            record.headers().add("Authorization", "Bearer sk-live-0123456789abcdef".getBytes(StandardCharsets.UTF_8));
            record.headers().add("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".getBytes());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(),
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(record).get();
            }

            ConsumerRecord<byte[], byte[]> rejected = readAll(config.topicPrefix() + "rejected-input", 1,
                    new ByteArrayDeserializer()).get(0);

            assertThat(rejected.value()).isNull();
            Map<String, String> headers = new HashMap<>();
            StringBuilder everything = new StringBuilder();
            for (Header header : rejected.headers()) {
                String text = header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
                headers.put(header.key(), text);
                everything.append(header.key()).append('=').append(text).append('\n');
            }
            assertThat(everything.toString()).doesNotContain("sk-live");
            assertThat(headers).containsEntry("Authorization", "[redacted]")
                    .containsEntry("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                    .containsEntry("rejected.value.dropped.bytes", String.valueOf(value.length))
                    .containsEntry("rejected.redacted", "true")
                    .containsEntry("__streams.errors.topic", config.topicPrefix() + "agent-results");
            assertThat(headers.get("__streams.errors.stacktrace").getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1100);
        }
    }

    @Test
    void anAvroRecordLongerThanTheInputLimitIsRejectedWithoutItsBytesAndTheNextIsProcessed() throws Exception {
        AppConfig config = config("large", Map.of("input.max.record.bytes", "4096"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            AgentResult large = AgentResult.newBuilder().setResultId("r-large").setAgentId("agent-1").setTaskId("task-1")
                    .setDialect(Dialect.VAT_ENVELOPE).setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder()
                            .setCode("llm-refusal").setMessage("m".repeat(30_000)).build()).build()).build();
            AgentResult small = AgentResult.newBuilder(large).setResultId("r-small").setTaskId("task-2")
                    .setOutcome(Success.newBuilder().build()).build();
            byte[] largeBytes;
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                largeBytes = AvroSerde.specific(AgentResult.class).configured(serde, false).serializer()
                        .serialize(config.topicPrefix() + "agent-results", large);
                producer.send(new ProducerRecord<>(config.topicPrefix() + "agent-results", "task-1", large)).get();
                producer.send(new ProducerRecord<>(config.topicPrefix() + "agent-results", "task-2", small)).get();
            }

            ConsumerRecord<byte[], byte[]> rejected = readAll(config.topicPrefix() + "rejected-input", 1,
                    new ByteArrayDeserializer()).get(0);
            assertThat(rejected.value()).isNull();
            Map<String, String> headers = new HashMap<>();
            for (Header header : rejected.headers()) {
                headers.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
            }
            assertThat(headers).containsEntry("rejected.value.dropped.bytes", String.valueOf(largeBytes.length))
                    .containsEntry("__streams.errors.exception", "io.agentoutcomes.topology.BoundedDeserializer$RefusedValueException");
            assertThat(headers.get("__streams.errors.message")).isEqualTo("too-large: a value of " + largeBytes.length
                    + " bytes on " + config.topicPrefix() + "agent-results is longer than input.max.record.bytes 4096 (+16384 for Avro)");
            assertThat(headers).containsEntry("rejected.reason", "too-large");
            assertThat(readAll(config.topicPrefix() + "outcomes-classified", 1,
                    AvroSerde.specific(io.agentoutcomes.avro.ClassifiedOutcome.class).configured(serde, false).deserializer())
                    .get(0).value().getResultId()).isEqualTo("r-small");
        }
    }

    @Test
    void jsonOfEveryDialectComesOutAsCanonicalAvroReadThroughTheRegistry() throws Exception {
        AppConfig config = config("ingest");
        String prefix = config.topicPrefix();
        long time = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                List<ProducerRecord<String, String>> records = List.of(
                        json(prefix + "agent-results-json", "task-vat", time, "{\"resultId\":\"r-vat\","
                                + "\"result\":{\"status\":\"error\",\"error\":\"llm-timeout\",\"confidence\":0.7}}",
                                "agent-id", "photo-analyzer"),
                        json(prefix + "agent-results-json", "task-flat", time, "{\"resultId\":\"r-flat\",\"content\":\"hi\","
                                + "\"cost\":0.0000001,\"usage\":{\"input_tokens\":3,\"cache_read_tokens\":2}}",
                                "agent-id", "flat-agent"),
                        json(prefix + "agent-results-json", "task-review", time, "{\"resultId\":\"r-review\","
                                + "\"status\":\"skipped\",\"agentId\":\"typescript\",\"reason\":\"No TypeScript files\","
                                + "\"metrics\":{\"durationMs\":1,\"filesProcessed\":0}}"),
                        json(prefix + "node-finished-json", "job-1", time, "{\"type\":\"node_finished\",\"job_id\":\"job-1\","
                                + "\"payload\":{\"node_id\":\"n1\",\"result_type\":\"retryable_failure\","
                                + "\"reason\":\"timeout\",\"attempt\":1}}"),
                        json(prefix + "continuation-events-json", "agent-1", time, "{\"agentId\":\"agent-1\",\"step\":2,"
                                + "\"shouldContinue\":false,\"stopReason\":\"steps_limit\",\"resolvedBy\":\"StepsLimit\"}"));
                for (ProducerRecord<String, String> record : records) {
                    producer.send(record).get();
                }
            }
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());

            List<AgentResult> results = readAll(prefix + "agent-results", 3,
                    AvroSerde.specific(AgentResult.class).configured(serde, false).deserializer())
                    .stream().map(ConsumerRecord::value).sorted(java.util.Comparator.comparing(AgentResult::getResultId)).toList();
            NodeFinished node = readAll(prefix + "node-finished", 1,
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).deserializer()).get(0).value();
            ContinuationEvaluated continuation = readAll(prefix + "continuation-events", 1,
                    AvroSerde.specific(ContinuationEvaluated.class).configured(serde, false).deserializer()).get(0).value();

            Instant at = Instant.ofEpochMilli(time);
            assertThat(results).containsExactly(
                    AgentResult.newBuilder().setResultId("r-flat").setAgentId("flat-agent").setTaskId("task-flat")
                            .setDialect(Dialect.FLATAGENTS).setRecordTimestamp(at.toEpochMilli())
                            .setExecution(ExecutionMetadata.newBuilder()
                                    .setUsage(Usage.newBuilder().setInputTokens(3L).setCacheReadTokens(2L).build())
                                    .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.000000100000")))
                                            .setSource(CostSource.REPORTED).build()).build())
                            .setOutcome(Success.newBuilder().setContent("hi").build()).build(),
                    AgentResult.newBuilder().setResultId("r-review").setAgentId("typescript").setTaskId("task-review")
                            .setDialect(Dialect.REVIEW_AGENT).setRecordTimestamp(at.toEpochMilli())
                            .setExecution(ExecutionMetadata.newBuilder().setDurationMs(1L).build())
                            .setMetadata("{\"filesProcessed\":0}")
                            .setOutcome(Skipped.newBuilder().setReason("No TypeScript files").build()).build(),
                    AgentResult.newBuilder().setResultId("r-vat").setAgentId("photo-analyzer").setTaskId("task-vat")
                            .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(at.toEpochMilli()).setConfidence(0.7)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build());
            assertThat(node).isEqualTo(NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setAttempt(1)
                    .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build());
            assertThat(continuation).isEqualTo(ContinuationEvaluated.newBuilder().setAgentId("agent-1").setStep(2)
                    .setShouldContinue(false).setStopReason(StopReason.STEPS_LIMIT).setResolvedBy("StepsLimit").build());
        }
    }

    @Test
    void cloudEventsFromDaprAndKnativePublishersAreUnwrappedAndClassifiedWithTheirIdentityAndTraceContext() throws Exception {
        AppConfig config = config("cloudevents");
        String prefix = config.topicPrefix();
        long time = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                // Dapr pub/sub: a structured envelope, no content-type header, trace context as extensions
                producer.send(json(prefix + "agent-results-json", null, time, "{\"specversion\":\"1.0\","
                        + "\"id\":\"dapr-1\",\"source\":\"photo-analyzer\",\"type\":\"com.dapr.event.sent\","
                        + "\"subject\":\"task-dapr\",\"datacontenttype\":\"application/json\",\"pubsubname\":\"kafka\","
                        + "\"traceparent\":\"" + traceparent + "\",\"tracestate\":\"rojo=1\","
                        + "\"data\":{\"status\":\"error\",\"error\":\"llm-rate-limit\"}}")).get();
                // a binary-mode event, as a Knative KafkaSink writes one
                producer.send(json(prefix + "agent-results-json", "partition-key", time,
                        "{\"status\":\"success\",\"data\":{\"ok\":true}}", "ce_specversion", "1.0", "ce_id", "knative-1",
                        "ce_source", "/apis/v1/namespaces/agents/reviewer", "ce_type", "dev.agents.result",
                        "ce_subject", "task-knative", "content-type", "application/json")).get();
            }
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());

            List<ConsumerRecord<String, AgentResult>> results = readAll(prefix + "agent-results", 2,
                    AvroSerde.specific(AgentResult.class).configured(serde, false).deserializer());
            List<ConsumerRecord<String, io.agentoutcomes.avro.ClassifiedOutcome>> outcomes = readAll(
                    prefix + "outcomes-classified", 2,
                    AvroSerde.specific(io.agentoutcomes.avro.ClassifiedOutcome.class).configured(serde, false).deserializer());

            Map<String, ConsumerRecord<String, AgentResult>> byId = new HashMap<>();
            results.forEach(r -> byId.put(r.value().getResultId(), r));
            Instant at = Instant.ofEpochMilli(time);
            assertThat(byId.get("dapr-1").value()).isEqualTo(AgentResult.newBuilder().setResultId("dapr-1")
                    .setAgentId("photo-analyzer").setTaskId("task-dapr").setDialect(Dialect.VAT_ENVELOPE)
                    .setRecordTimestamp(at.toEpochMilli()).setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder()
                            .setCode("llm-rate-limit").build()).build()).build());
            assertThat(byId.get("knative-1").value()).isEqualTo(AgentResult.newBuilder().setResultId("knative-1")
                    .setAgentId("/apis/v1/namespaces/agents/reviewer").setTaskId("task-knative")
                    .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(at.toEpochMilli())
                    .setOutcome(Success.newBuilder().setData("{\"ok\":true}").build()).build());
            Map<String, String> daprHeaders = new HashMap<>();
            byId.get("dapr-1").headers().forEach(h -> daprHeaders.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
            assertThat(daprHeaders).containsEntry("traceparent", traceparent).containsEntry("tracestate", "rojo=1")
                    .containsEntry("ce_id", "dapr-1").containsEntry("ce_type", "com.dapr.event.sent")
                    .containsEntry("ce_pubsubname", "kafka").doesNotContainKey("content-type");
            assertThat(outcomes).extracting(r -> r.key() + " " + r.value().getResultId() + " " + r.value().getResultType())
                    .containsExactlyInAnyOrder("task-dapr dapr-1 RETRYABLE_FAILURE", "task-knative knative-1 SUCCESS");
        }
    }

    @Test
    void retriesPendingWhenTheServiceStopsAreForwardedOnceAfterItRestartsNoneEarly() throws Exception {
        AppConfig config = config("retries", Map.of("backoff.base.llm-timeout.ms", "6000"));
        String prefix = config.topicPrefix();
        int tasks = 20;

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < tasks; i++) {
                    AgentResult failure = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("a").setTaskId("task-" + i)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build();
                    ProducerRecord<String, AgentResult> record = new ProducerRecord<>(prefix + "agent-results",
                            failure.getTaskId(), failure);
                    record.headers().add("traceparent", traceparent(i).getBytes(StandardCharsets.UTF_8));
                    producer.send(record).get();
                }
            }
            long firstDue = readAll(prefix + "retry-delay-6s", tasks, AvroSerde.specific(RetryRequest.class)
                    .configured(serde, false).deserializer()).stream()
                    .mapToLong(r -> r.value().getDueAt()).min().orElseThrow();
            assertThat(System.currentTimeMillis()).as("every retry still pending when the service stops").isLessThan(firstDue);
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl());
            List<ConsumerRecord<String, RetryRequest>> ready = readAll(prefix + "retry-ready", tasks,
                    AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer());
            assertThat(ready).extracting(r -> r.value().getResultId()).doesNotHaveDuplicates().hasSize(tasks);
            assertThat(ready).allSatisfy(r -> assertThat(r.timestamp())
                    .as("forwarded at or after its due time").isGreaterThanOrEqualTo(r.value().getDueAt()));
            assertThat(ready).allSatisfy(r -> assertThat(r.value().getDelayMs()).isEqualTo(6_000L));
            // The trace context and the retry's identity survive the delay, the scheduler's store and the restart.
            assertThat(ready).allSatisfy(r -> {
                int task = Integer.parseInt(r.value().getTaskId().substring("task-".length()));
                assertThat(headers(r)).containsEntry("traceparent", traceparent(task))
                        .containsEntry("task-id", "task-" + task).containsEntry("result-id", "r-" + task)
                        .containsEntry("attempt", "1").containsEntry("due-at", Instant.ofEpochMilli(r.value().getDueAt()).toString())
                        .containsEntry("origin-topic", prefix + "agent-results");
            });
            Thread.sleep(2_000);
            assertThat(readAll(prefix + "retry-ready", tasks, AvroSerde.specific(RetryRequest.class)
                    .configured(serde, false).deserializer())).as("nothing forwarded twice").hasSize(tasks);
        }
    }

    @Test
    void hourlyAnalyticsEqualTheSumsOfAKnownMixedLoadToTheLastDigit() throws Exception {
        AppConfig config = config("analytics", Map.of(ConfigLoader.TOPIC_PARTITIONS, "1",
                "analytics.flush.interval.ms", "200", "analytics.grace.ms", "0"));
        String prefix = config.topicPrefix();
        Instant hour = Instant.parse("2026-03-01T10:00:00Z");
        String[] agents = {"summarizer", "reviewer", "planner"};
        String[] models = {"gpt-4o-mini", "claude-haiku"};
        Map<String, BigDecimal> expectedCost = new HashMap<>();
        Map<String, Long> expectedInput = new HashMap<>();
        Map<String, Map<String, Long>> expectedCompletions = new HashMap<>();
        List<AgentResult> load = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String agent = agents[i % 3];
            String model = models[(i / 3) % 2];
            String provider = model.startsWith("gpt") ? "openai" : "anthropic";
            BigDecimal cost = new BigDecimal(i + 1).movePointLeft(7).setScale(12);
            long input = 100 + i;
            Object outcome = i % 5 == 0 ? Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-refusal").build()).build()
                    : i % 7 == 0 ? Skipped.newBuilder().setReason("nothing to do").build() : Success.newBuilder().build();
            String type = i % 5 == 0 ? "PERMANENT_FAILURE" : i % 7 == 0 ? "SKIPPED" : "SUCCESS";
            String key = agent + "|" + model + "|" + provider;
            expectedCost.merge(key, cost, BigDecimal::add);
            expectedInput.merge(key, input, Long::sum);
            expectedCompletions.computeIfAbsent(key, k -> new HashMap<>()).merge(type, 1L, Long::sum);
            load.add(AgentResult.newBuilder().setResultId("r-" + i).setAgentId(agent).setTaskId("task-" + i)
                    .setExecution(ExecutionMetadata.newBuilder().setModel(model).setProvider(provider).setDurationMs(10L + i)
                            .setUsage(Usage.newBuilder().setInputTokens(input).setOutputTokens(7L).build())
                            .setCost(Cost.newBuilder().setTotal(Money.toBytes(cost)).setSource(CostSource.REPORTED).build()).build())
                    .setOutcome(outcome).build());
        }

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < load.size(); i++) {
                    AgentResult result = load.get(i);
                    producer.send(new ProducerRecord<>(prefix + "agent-results", null, hour.plusSeconds(i * 10L).toEpochMilli(),
                            result.getTaskId(), result)).get();
                }
                Thread.sleep(1_000);
                AgentResult clock = AgentResult.newBuilder(load.get(1)).setResultId("clock").setTaskId("clock").build();
                producer.send(new ProducerRecord<>(prefix + "agent-results", null, hour.plusSeconds(7_300).toEpochMilli(),
                        "clock", clock)).get();
            }
            Map<String, io.agentoutcomes.avro.AgentMetrics> closed = new HashMap<>();
            Map<String, Object> consumer = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "metrics-" + UUID.randomUUID(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, io.agentoutcomes.avro.AgentMetrics> metrics = new KafkaConsumer<>(consumer,
                    new StringDeserializer(), AvroSerde.specific(io.agentoutcomes.avro.AgentMetrics.class)
                            .configured(serde, false).deserializer())) {
                metrics.subscribe(List.of(prefix + "agent-metrics-1h"));
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (closed.size() < expectedCost.size() && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, io.agentoutcomes.avro.AgentMetrics> record : metrics.poll(Duration.ofMillis(200))) {
                        io.agentoutcomes.avro.AgentMetrics window = record.value();
                        if (window.getWindowClosed() && window.getWindowStart() == hour.toEpochMilli()) {
                            closed.put(window.getAgentId() + "|" + window.getModel() + "|" + window.getProvider(), window);
                        }
                    }
                }
            }
            assertThat(closed.keySet()).isEqualTo(expectedCost.keySet());
            closed.forEach((key, window) -> {
                assertThat(window.getCostTotal()).as("cost of %s", key).isEqualTo(expectedCost.get(key));
                assertThat(window.getInputTokens()).as("input tokens of %s", key).isEqualTo(expectedInput.get(key));
                assertThat(window.getCompletions()).as("completions of %s", key).isEqualTo(expectedCompletions.get(key));
            });
            assertThat(closed.values().stream().map(io.agentoutcomes.avro.AgentMetrics::getCostTotal)
                    .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo("0.004515");

            // the running totals (the 300 results and the clock record) as Prometheus domain meters and through the API
            assertThat(scrapeSum(service, "agent_outcomes_cost_usd_total", "")).isCloseTo(0.0045152,
                    org.assertj.core.data.Offset.offset(1e-12));
            assertThat(scrapeSum(service, "agent_outcomes_results_total", "")).isEqualTo(301.0);
            assertThat(scrapeSum(service, "agent_outcomes_results_total", "result_type=\"SKIPPED\"")).isEqualTo(
                    (double) expectedCompletions.values().stream().mapToLong(m -> m.getOrDefault("SKIPPED", 0L)).sum());
            HttpResponse<String> byModel = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.httpUrl() + "/analytics?window=1h&by=model")).build(), HttpResponse.BodyHandlers.ofString());
            com.fasterxml.jackson.databind.JsonNode answer = new com.fasterxml.jackson.databind.ObjectMapper().readTree(byModel.body());
            assertThat(answer.get("series")).extracting(series -> series.get("name").asText())
                    .containsExactly("claude-haiku", "gpt-4o-mini");
            assertThat(answer.at("/series/0/points/0/windowStart").asText()).isEqualTo(hour.toString());
            assertThat(answer.at("/series/0/points/0/windowClosed").asBoolean()).isTrue();
            // issue 19 item 4: the answer says it reads uncommitted state
            assertThat(answer.get("isolationLevel").asText()).isEqualTo("read_uncommitted");
            assertThat(byModel.headers().firstValue("X-Isolation-Level")).contains("read_uncommitted");
        }
    }

    /** A W3C trace context per task: version 00, a trace id ending in the task number, sampled. */
    private static String traceparent(int task) {
        return String.format("00-4bf92f3577b34da6a3ce929d0e0e%04d-00f067aa0ba902b7-01", task);
    }

    private static Map<String, String> headers(ConsumerRecord<?, ?> record) {
        Map<String, String> all = new HashMap<>();
        record.headers().forEach(h -> all.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return all;
    }

    private static ProducerRecord<String, String> json(String topic, String key, long time, String value, String... headers) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, null, time, key, value);
        for (int i = 0; i < headers.length; i += 2) {
            record.headers().add(headers[i], headers[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    private AppConfig config(String name) {
        return config(name, Map.of());
    }

    /** A service on the test broker with its own topic prefix and application id; {@code extra} adds or overrides settings. */
    private AppConfig config(String name, Map<String, String> extra) {
        String prefix = name + "-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, String> settings = new HashMap<>(Map.of(ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix));
        settings.putAll(extra);
        return kafka.serviceConfig(dataDir, 2, settings);
    }

    private static SchemaRegistryClient restClient(String url) {
        return new RestSchemaRegistryClient(List.of(URI.create(url)), Optional.empty(), Duration.ofSeconds(5), 1,
                Duration.ofMillis(10));
    }

    private static Map<String, Object> producerConfig() {
        return Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all");
    }

    private static <V> List<ConsumerRecord<String, V>> readAll(String topic, int expected, Deserializer<V> values) {
        return read(topic, expected, new StringDeserializer(), values);
    }

    private static <K, V> List<ConsumerRecord<K, V>> read(String topic, int expected, Deserializer<K> keys,
                                                         Deserializer<V> values) {
        return read(kafka.bootstrapServers(), topic, expected, keys, values);
    }

    private static <K, V> List<ConsumerRecord<K, V>> read(String bootstrapServers, String topic, int expected,
                                                         Deserializer<K> keys, Deserializer<V> values) {
        Map<String, Object> config = Map.of("bootstrap.servers", bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config, keys, values)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        assertThat(records).as("records on %s", topic).hasSize(expected);
        return records;
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected, ByteArrayDeserializer values) {
        return read(topic, expected, new ByteArrayDeserializer(), values);
    }

    /** Scrapes /metrics, parses the Prometheus text format, and sums the samples of a metric whose labels contain the filter. */
    private static double scrapeSum(AgentOutcomesService service, String metric, String labelFilter) throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(service.httpUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        java.util.regex.Pattern sample = java.util.regex.Pattern.compile(
                "^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})?\\s+(\\S+)$");
        double sum = 0;
        int samples = 0;
        for (String line : scrape.body().split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            java.util.regex.Matcher matcher = sample.matcher(line);
            assertThat(matcher.matches()).as("a Prometheus sample line: %s", line).isTrue();
            if (matcher.group(1).equals(metric) && (matcher.group(2) == null ? "" : matcher.group(2)).contains(labelFilter)) {
                sum += Double.parseDouble(matcher.group(3));
                samples++;
            }
        }
        assertThat(samples).as("samples of %s", metric).isPositive();
        return sum;
    }

    private static void awaitHealthy(AgentOutcomesService service) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(service.httpUrl() + "/health")).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        while (response.statusCode() != 200 && System.nanoTime() < deadline) {
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).contains("\"status\":\"DOWN\"");
            Thread.sleep(100);
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"status\":\"UP\",\"streams\":\"RUNNING\"}");
    }
}
