package io.agentoutcomes.client;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The publisher against a real broker: each record on its topic, keyed as the pipeline keeps state, with identity headers. */
class OutcomePublisherTest {
    private static final String REGISTRY = "mock://publisher-test";
    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @BeforeAll
    static void createTopics() throws Exception {
        broker.createTopics(2, "t.agent-results", "t.agent-results-json", "t.node-finished", "t.node-finished-json",
                "redriven.agent-results");
    }

    private static OutcomePublisher publisher() {
        return OutcomePublisher.create(Map.of("bootstrap.servers", broker.bootstrapServers(),
                AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY, OutcomePublisher.TOPIC_PREFIX, "t."));
    }

    @Test
    void avroAgentResultIsKeyedByTaskIdWithIdentityHeaders() throws Exception {
        AgentResult result = ResultBuilder.of("planner", "task-7").attempt(1).job("job-3", "plan")
                .error("llm-timeout", "no answer in 30 s");
        try (OutcomePublisher publisher = publisher()) {
            publisher.publish(result).get();
        }
        ConsumerRecord<String, byte[]> record = readAll("t.agent-results", 1).get(0);
        assertThat(record.key()).isEqualTo("task-7");
        assertThat(header(record, "agent-id")).isEqualTo("planner");
        assertThat(header(record, "task-id")).isEqualTo("task-7");
        assertThat(header(record, "job-id")).isEqualTo("job-3");
        assertThat(header(record, "node-id")).isEqualTo("plan");
        assertThat(header(record, "attempt")).isEqualTo("1");
        assertThat(header(record, "result-id")).isEqualTo("task-7/1");
        // Confluent wire format: magic byte 0, then the schema id
        assertThat(record.value()[0]).isEqualTo((byte) 0);
        AgentResult decoded = AvroSerde.specific(AgentResult.class).configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL,
                REGISTRY), false).deserializer().deserialize("t.agent-results", record.value());
        assertThat(decoded).isEqualTo(result);
    }

    @Test
    void theReRunOfARedrivenRetryCarriesTheRedriveIdAndOtherReRunsDoNot() throws Exception {
        RetryRequest request = RetryRequest.newBuilder().setTaskId("task-7").setResultId("task-7/4").setNextAttempt(0)
                .setErrorCode("llm-timeout").setDelayMs(0).setDelayReason("redrive r-1").setTier("redrive").setFailedAt(0)
                .setDueAt(0).setReason("Redriven").build();
        DueRetry redriven = new DueRetry(request, Instant.EPOCH, 0, 0, "r-1");
        DueRetry plain = new DueRetry(request, Instant.EPOCH, 0, 1, null);
        try (OutcomePublisher publisher = OutcomePublisher.create(Map.of("bootstrap.servers", broker.bootstrapServers(),
                AvroSerdeConfig.SCHEMA_REGISTRY_URL, REGISTRY, OutcomePublisher.TOPIC_PREFIX, "redriven."))) {
            publisher.publish(ResultBuilder.of("planner", "task-7").resultId("rerun-1").success("{}"), redriven).get();
            publisher.publish(ResultBuilder.of("planner", "task-7").resultId("rerun-2").success("{}"), plain).get();
        }
        List<ConsumerRecord<String, byte[]>> records = readAll("redriven.agent-results", 2);
        assertThat(records).extracting(r -> header(r, "result-id"), r -> header(r, HeaderNames.REDRIVE_ID))
                .containsExactly(Tuple.tuple("rerun-1", "r-1"), Tuple.tuple("rerun-2", null));
    }

    @Test
    void nodeEventIsKeyedByJobId() throws Exception {
        NodeFinished event = NodeEventBuilder.of("job-9", "fetch").stepIndex(1).retryableFailure("timeout");
        try (OutcomePublisher publisher = publisher()) {
            publisher.publish(event).get();
        }
        ConsumerRecord<String, byte[]> record = readAll("t.node-finished", 1).get(0);
        assertThat(record.key()).isEqualTo("job-9");
        assertThat(header(record, "job-id")).isEqualTo("job-9");
        assertThat(header(record, "node-id")).isEqualTo("fetch");
    }

    @Test
    void jsonGoesAsWrittenToTheJsonTopicWithDialectAndHeaders() throws Exception {
        String json = "{\"output\":{\"answer\":42},\"usage\":{\"input_tokens\":10,\"output_tokens\":2}}";
        try (OutcomePublisher publisher = OutcomePublisher.create(Map.of("bootstrap.servers", broker.bootstrapServers(),
                OutcomePublisher.TOPIC_PREFIX, "t."))) {
            publisher.publish(JsonRecord.agentResult("extractor", "task-j", json).resultId("r-j").attempt(0)
                    .dialect("flatagents")).get();
        }
        ConsumerRecord<String, byte[]> record = readAll("t.agent-results-json", 1).get(0);
        assertThat(record.key()).isEqualTo("task-j");
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo(json);
        assertThat(header(record, "agent-id")).isEqualTo("extractor");
        assertThat(header(record, "result-id")).isEqualTo("r-j");
        assertThat(header(record, "dialect")).isEqualTo("flatagents");
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        return IdentityHeaders.get(record.headers(), name);
    }

    private static List<ConsumerRecord<String, byte[]>> readAll(String topic, int expected) throws InterruptedException {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers",
                broker.bootstrapServers(), "group.id", "reader-" + topic, "auto.offset.reset", "earliest"),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
            waitForCondition(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
                return all.size() >= expected;
            }, 20_000, () -> expected + " records on " + topic + ", " + all.size() + " read");
            assertThat(all).hasSize(expected);
            return all;
        }
    }
}
