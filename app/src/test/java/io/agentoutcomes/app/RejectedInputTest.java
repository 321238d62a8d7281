package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** Input the pipeline cannot decode or process goes to rejected-input, saying why, without credentials or oversized bytes; the pipeline goes on. */
class RejectedInputTest extends ServiceOnTestBroker {
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

            List<ConsumerRecord<String, JobReplayState>> states = readAll(
                    config.topicPrefix() + "replay-state", 8 + 1,
                    AvroSerde.specific(JobReplayState.class)
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
                    .containsEntry("__streams.errors.exception", "io.agentoutcomes.topology.intake.BoundedDeserializer$RefusedValueException");
            assertThat(headers.get("__streams.errors.message")).isEqualTo("too-large: a value of " + largeBytes.length
                    + " bytes on " + config.topicPrefix() + "agent-results is longer than input.max.record.bytes 4096 (+16384 for Avro)");
            assertThat(headers).containsEntry("rejected.reason", "too-large");
            assertThat(readAll(config.topicPrefix() + "outcomes-classified", 1,
                    AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false).deserializer())
                    .get(0).value().getResultId()).isEqualTo("r-small");
        }
    }
}
