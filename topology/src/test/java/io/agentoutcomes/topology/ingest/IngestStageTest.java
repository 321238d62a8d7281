package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.StageDriver.T0;
import static io.agentoutcomes.topology.StageDriver.headers;
import static io.agentoutcomes.topology.StageDriver.textRecord;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The ingest stage alone ({@link IngestTopology}): the three JSON topics in, their canonical Avro topics and
 * {@code rejected-input} out; nothing of classification is built.
 */
class IngestStageTest {
    private static final int LIMIT = 4 * 1024;

    private final StageDriver stage = StageDriver.stage((builder, topics) ->
            IngestTopology.build(builder, topics, new InputLimits(LIMIT)));
    private final TestInputTopic<byte[], byte[]> agentResultsJson = stage.bytesInput(stage.topics.agentResultsJson.name());
    private final TestInputTopic<byte[], byte[]> nodeFinishedJson = stage.bytesInput(stage.topics.nodeFinishedJson.name());
    private final TestInputTopic<byte[], byte[]> continuationsJson =
            stage.bytesInput(stage.topics.continuationEventsJson.name());
    private final TestOutputTopic<String, AgentResult> agentResults = stage.output(stage.topics.agentResults);
    private final TestOutputTopic<String, NodeFinished> nodeFinished = stage.output(stage.topics.nodeFinished);
    private final TestOutputTopic<String, ContinuationEvaluated> continuations = stage.output(stage.topics.continuationEvents);
    private final TestOutputTopic<byte[], byte[]> rejected = stage.bytesOutput(stage.topics.rejectedInput.name());

    @AfterEach
    void close() {
        stage.close();
    }

    private static Map<String, String> text(Headers headers) {
        return StreamSupport.stream(headers.spliterator(), false).collect(Collectors.toMap(Header::key,
                header -> header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8), (a, b) -> b));
    }

    private double rejectedCount(String topic, String reason) {
        return stage.metricTotal("stream-agent-outcomes-ingest-metrics", "rejected-" + reason + "-total",
                "agent-outcomes-ingest-id", topic);
    }

    @Test
    void anAgentResultIsNormalizedToItsCanonicalRecordKeyedByTaskWithItsHeadersCarried() {
        agentResultsJson.pipeInput(textRecord("task-1", "{\"status\":\"success\",\"data\":{\"ok\":true}}",
                headers("agent-id", "a-1", "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"), T0));

        List<TestRecord<String, AgentResult>> out = agentResults.readRecordsToList();
        assertThat(out).extracting(r -> KeyValue.pair(r.key(), r.value())).containsExactly(KeyValue.pair("task-1",
                AgentResult.newBuilder().setResultId("agent-results-json/0/0").setAgentId("a-1").setTaskId("task-1")
                        .setAttempt(0).setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(T0.toEpochMilli())
                        .setOutcome(Success.newBuilder().setData("{\"ok\":true}").setWarnings(List.of()).build()).build()));
        assertThat(out.get(0).timestamp()).isEqualTo(T0.toEpochMilli());
        assertThat(text(out.get(0).headers())).containsEntry("agent-id", "a-1")
                .containsEntry("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(rejected.isEmpty()).isTrue();
    }

    @Test
    void aNodeEventIsKeyedByItsJobAndAContinuationEventByItsAgent() {
        nodeFinishedJson.pipeInput(textRecord(null, "{\"job_id\":\"job-1\",\"node_id\":\"n1\",\"step_index\":1,"
                + "\"attempt\":0,\"result_type\":\"retryable_failure\",\"reason\":\"timeout\"}", headers(), T0));
        continuationsJson.pipeInput(textRecord(null, "{\"agentId\":\"agent-1\",\"step\":4,\"shouldContinue\":false,"
                + "\"stopReason\":\"steps_limit\",\"resolvedBy\":\"aggregate\",\"evaluations\":[]}", headers(), T0));

        assertThat(nodeFinished.readKeyValuesToList()).containsExactly(KeyValue.pair("job-1", NodeFinished.newBuilder()
                .setJobId("job-1").setNodeId("n1").setStepIndex(1).setAttempt(0)
                .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build()));
        assertThat(continuations.readKeyValuesToList()).containsExactly(KeyValue.pair("agent-1", ContinuationEvaluated
                .newBuilder().setAgentId("agent-1").setStep(4).setShouldContinue(false)
                .setStopReason(StopReason.STEPS_LIMIT).setResolvedBy("aggregate").build()));
        assertThat(rejected.isEmpty()).isTrue();
    }

    @Test
    void aRecordThatCannotBeNormalizedGoesToRejectedInputWithItsReasonIsCountedAndTheNextIsNormalized() {
        nodeFinishedJson.pipeInput(textRecord("job-1", "[1,2]", headers("node-id", "n1"), T0));
        nodeFinishedJson.pipeInput(textRecord("job-1", "{\"result_type\":\"success\"}", headers("node-id", "n1"), T0));

        List<TestRecord<byte[], byte[]>> out = rejected.readRecordsToList();
        assertThat(out).hasSize(1);
        assertThat(new String(out.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("job-1");
        assertThat(new String(out.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("[1,2]");
        assertThat(text(out.get(0).headers())).isEqualTo(Map.of(
                "node-id", "n1",
                RejectedInput.EXCEPTION, InvalidInputException.class.getName(),
                RejectedInput.MESSAGE, "expected a JSON object, got array",
                RejectedInput.REASON, "unparseable-json",
                RejectedInput.TOPIC, "node-finished-json",
                RejectedInput.PARTITION, "0",
                RejectedInput.OFFSET, "0"));
        assertThat(rejectedCount("node-finished-json", "unparseable-json")).isEqualTo(1.0);
        assertThat(nodeFinished.readValuesToList()).extracting(NodeFinished::getJobId, NodeFinished::getNodeId,
                NodeFinished::getResultType).containsExactly(Tuple.tuple("job-1", "n1",
                StepResultType.SUCCESS));
    }

    @Test
    void aValueOverTheStagesInputLimitIsRejectedAsTooLargeWithoutItsBytes() {
        String large = "{\"status\":\"success\",\"data\":\"" + "x".repeat(LIMIT) + "\"}";
        agentResultsJson.pipeInput(textRecord("task-1", large, headers("agent-id", "a-1"), T0));

        TestRecord<byte[], byte[]> out = rejected.readRecord();
        assertThat(out.value()).isNull();
        assertThat(text(out.headers())).containsEntry(RejectedInput.REASON, "too-large")
                .containsEntry(RejectedInput.VALUE_DROPPED_BYTES, String.valueOf(large.length()))
                .containsEntry(RejectedInput.MESSAGE, "a value of " + large.length()
                        + " bytes is longer than input.max.record.bytes " + LIMIT);
        assertThat(rejectedCount("agent-results-json", "too-large")).isEqualTo(1.0);
        assertThat(agentResults.isEmpty()).isTrue();
    }
}
