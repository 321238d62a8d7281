package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.test.TestRecord;

/** The whole pipeline on a TopologyTestDriver, with helpers to publish JSON and read what comes out. */
final class IngestDriver implements AutoCloseable {
    static final Instant RECORD_TIME = Instant.parse("2026-03-01T12:00:00Z");

    private final String scope = "ingest-" + UUID.randomUUID();
    final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope));
    final TopologyTestDriver driver;
    private final TestInputTopic<byte[], byte[]> agentResultsJson;
    private final TestInputTopic<byte[], byte[]> nodeFinishedJson;
    private final TestInputTopic<byte[], byte[]> continuationEventsJson;
    private final TestOutputTopic<String, AgentResult> agentResults;
    private final TestOutputTopic<String, NodeFinished> nodeFinished;
    private final TestOutputTopic<String, ContinuationEvaluated> continuationEvents;
    private final TestOutputTopic<byte[], byte[]> rejected;
    private final TestOutputTopic<String, ClassifiedOutcome> outcomes;

    IngestDriver() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ingest-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejectedInput.name());
        driver = new TopologyTestDriver(AgentOutcomesTopology.build(topics, io.agentoutcomes.topology.classify.RetryPolicy.defaults(), props), props);
        agentResultsJson = input(topics.agentResultsJson.name());
        nodeFinishedJson = input(topics.nodeFinishedJson.name());
        continuationEventsJson = input(topics.continuationEventsJson.name());
        agentResults = driver.createOutputTopic(topics.agentResults.name(), new StringDeserializer(),
                topics.agentResults.valueSerde().deserializer());
        nodeFinished = driver.createOutputTopic(topics.nodeFinished.name(), new StringDeserializer(),
                topics.nodeFinished.valueSerde().deserializer());
        continuationEvents = driver.createOutputTopic(topics.continuationEvents.name(), new StringDeserializer(),
                topics.continuationEvents.valueSerde().deserializer());
        rejected = driver.createOutputTopic(topics.rejectedInput.name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        outcomes = driver.createOutputTopic(topics.outcomesClassified.name(), new StringDeserializer(),
                topics.outcomesClassified.valueSerde().deserializer());
    }

    private TestInputTopic<byte[], byte[]> input(String name) {
        return driver.createInputTopic(name, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Headers from name/value pairs. */
    static Headers headers(String... nameValues) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.add(nameValues[i], nameValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    /** Raw bytes onto the Avro agent-results topic, as a producer that is not a schema-registry serde might write. */
    void avroAgentResultBytes(String key, byte[] value) {
        driver.createInputTopic(topics.agentResults.name(), new ByteArraySerializer(), new ByteArraySerializer())
                .pipeInput(new TestRecord<>(key.getBytes(StandardCharsets.UTF_8), value, new RecordHeaders(), RECORD_TIME));
    }

    void agentResult(String key, String json, Headers headers) {
        pipe(agentResultsJson, key, json, headers);
    }

    void nodeFinished(String key, String json, Headers headers) {
        pipe(nodeFinishedJson, key, json, headers);
    }

    void continuationEvent(String key, String json, Headers headers) {
        pipe(continuationEventsJson, key, json, headers);
    }

    /** Any bytes onto a JSON input topic, by its name. */
    void pipe(String topic, String key, byte[] value, Headers headers) {
        TestInputTopic<byte[], byte[]> input = topic.equals(topics.agentResultsJson.name()) ? agentResultsJson
                : topic.equals(topics.nodeFinishedJson.name()) ? nodeFinishedJson : continuationEventsJson;
        input.pipeInput(new TestRecord<>(key == null ? null : key.getBytes(StandardCharsets.UTF_8), value, headers, RECORD_TIME));
    }

    private static void pipe(TestInputTopic<byte[], byte[]> topic, String key, String json, Headers headers) {
        topic.pipeInput(new TestRecord<>(key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                json == null ? null : json.getBytes(StandardCharsets.UTF_8), headers, RECORD_TIME));
    }

    List<TestRecord<String, AgentResult>> agentResults() {
        return agentResults.readRecordsToList();
    }

    List<TestRecord<String, NodeFinished>> nodeFinished() {
        return nodeFinished.readRecordsToList();
    }

    List<TestRecord<String, ContinuationEvaluated>> continuationEvents() {
        return continuationEvents.readRecordsToList();
    }

    List<TestRecord<String, ClassifiedOutcome>> outcomes() {
        return outcomes.readRecordsToList();
    }

    List<TestRecord<byte[], byte[]>> rejected() {
        return rejected.readRecordsToList();
    }

    /** The total of a rejection counter, by input topic and reason label. */
    double rejectedCount(String topic, String reason) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-agent-outcomes-ingest-metrics")
                        && e.getKey().name().equals("rejected-" + reason + "-total")
                        && topic.equals(e.getKey().tags().get("agent-outcomes-ingest-id")))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    @Override
    public void close() {
        driver.close();
        MockSchemaRegistry.dropScope(scope);
    }
}
