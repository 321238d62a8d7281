package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.topic.Topics;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The whole pipeline on a {@link StageDriver}, as a producer of JSON sees it: undecodable records logged and sent to
 * {@code rejected-input}, helpers to publish JSON and read what comes out.
 */
final class IngestDriver implements AutoCloseable {
    static final Instant RECORD_TIME = StageDriver.T0;

    private final StageDriver pipeline = StageDriver.configured(
            (topics, settings) -> AgentOutcomesTopology.build(topics, PipelineSettings.defaults(), settings),
            IngestDriver::settings);
    final Topics topics = pipeline.topics;
    final TopologyTestDriver driver = pipeline.driver;
    private final TestInputTopic<byte[], byte[]> agentResultsJson = pipeline.bytesInput(topics.agentResultsJson.name());
    private final TestInputTopic<byte[], byte[]> nodeFinishedJson = pipeline.bytesInput(topics.nodeFinishedJson.name());
    private final TestInputTopic<byte[], byte[]> continuationEventsJson =
            pipeline.bytesInput(topics.continuationEventsJson.name());
    private final TestInputTopic<byte[], byte[]> otlpSpans = pipeline.bytesInput(topics.otlpSpans.name());
    private final TestOutputTopic<String, AgentResult> agentResults = pipeline.output(topics.agentResults);
    private final TestOutputTopic<String, NodeFinished> nodeFinished = pipeline.output(topics.nodeFinished);
    private final TestOutputTopic<String, ContinuationEvaluated> continuationEvents =
            pipeline.output(topics.continuationEvents);
    private final TestOutputTopic<byte[], byte[]> rejected = pipeline.bytesOutput(topics.rejectedInput.name());
    private final TestOutputTopic<String, ClassifiedOutcome> outcomes = pipeline.output(topics.outcomesClassified);

    private static Properties settings(Topics topics) {
        Properties props = new Properties();
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejectedInput.name());
        return props;
    }

    /** Headers from name/value pairs. */
    static Headers headers(String... nameValues) {
        return StageDriver.headers(nameValues);
    }

    /** Raw bytes onto the Avro agent-results topic, as a producer that is not a schema-registry serde might write. */
    void avroAgentResultBytes(String key, byte[] value) {
        pipeline.bytesInput(topics.agentResults.name())
                .pipeInput(StageDriver.bytesRecord(key, value, new RecordHeaders(), RECORD_TIME));
    }

    void agentResult(String key, String json, Headers headers) {
        agentResultsJson.pipeInput(StageDriver.textRecord(key, json, headers, RECORD_TIME));
    }

    void nodeFinished(String key, String json, Headers headers) {
        nodeFinishedJson.pipeInput(StageDriver.textRecord(key, json, headers, RECORD_TIME));
    }

    void continuationEvent(String key, String json, Headers headers) {
        continuationEventsJson.pipeInput(StageDriver.textRecord(key, json, headers, RECORD_TIME));
    }

    /** An OTLP trace export request onto the OTLP topic, as the Collector's Kafka exporter writes it. */
    void otlp(byte[] request) {
        otlpSpans.pipeInput(StageDriver.bytesRecord(null, request, new RecordHeaders(), RECORD_TIME));
    }

    /** Any bytes onto a JSON input topic, by its name. */
    void pipe(String topic, String key, byte[] value, Headers headers) {
        TestInputTopic<byte[], byte[]> input = topic.equals(topics.agentResultsJson.name()) ? agentResultsJson
                : topic.equals(topics.nodeFinishedJson.name()) ? nodeFinishedJson : continuationEventsJson;
        input.pipeInput(StageDriver.bytesRecord(key, value, headers, RECORD_TIME));
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
        return pipeline.metricTotal("stream-agent-outcomes-ingest-metrics", "rejected-" + reason + "-total",
                "agent-outcomes-ingest-id", topic);
    }

    @Override
    public void close() {
        pipeline.close();
    }
}
