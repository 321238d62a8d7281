package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.continuationEvent;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static io.agentoutcomes.topology.ingest.Normalize.nodeFinished;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.ContinuationDecision;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's node_finished (flat and wrapped, with and without result_type) and seed 002's ContinuationEvaluated. The
 * stage keys each by the job id and the agent id read here ({@link IngestStageTest}).
 */
class Seed001And002EventsTest {
    @Test
    void flatNodeFinishedWithAPermanentFailure() {
        NodeFinished event = nodeFinished("job-1", "{\"job_id\":\"job-1\",\"node_id\":\"n1\",\"payload_results\":{},"
                + "\"trace_span_id\":\"span-2\",\"parent_span_id\":\"span-1\",\"step_index\":1,\"duration_ms\":42,"
                + "\"state\":{\"cursor\":\"n0\"},\"attempt\":0,\"result_type\":\"permanent_failure\","
                + "\"reason\":\"404 not found\",\"timestamp\":\"2026-03-01T11:59:59Z\"}", headers());

        assertThat(event).isEqualTo(NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setPayloadResults("{}")
                .setTraceSpanId("span-2").setParentSpanId("span-1").setStepIndex(1).setDurationMs(42L)
                .setState("{\"cursor\":\"n0\"}").setAttempt(0).setTimestamp(Instant.parse("2026-03-01T11:59:59Z").toEpochMilli())
                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("404 not found").build());
    }

    @Test
    void wrappedNodeFinishedWithoutResultTypeKeepsItNull() {
        NodeFinished event = nodeFinished(null, "{\"type\":\"node_finished\",\"job_id\":\"job-2\",\"payload\":{\"node_id\":\"n3\","
                + "\"payload_results\":{\"n3\":{\"rows\":7}},\"step_index\":3,\"duration_ms\":1500,\"attempt\":1}}", headers());

        assertThat(event).isEqualTo(NodeFinished.newBuilder()
                .setJobId("job-2").setNodeId("n3").setPayloadResults("{\"n3\":{\"rows\":7}}").setStepIndex(3)
                .setDurationMs(1500L).setAttempt(1).build());
    }

    @Test
    void everyResultTypeAndIdentityFromHeadersAndKey() {
        String[] types = {"success", "retryable_failure", "permanent_failure", "compensatable_failure"};
        List<NodeFinished> events = Stream.of(types).map(type -> nodeFinished("job-key",
                "{\"result_type\":\"" + type + "\",\"reason\":\"r\"}", headers("node-id", "n9"))).toList();

        assertThat(events).extracting(NodeFinished::getResultType).containsExactly(
                StepResultType.SUCCESS, StepResultType.RETRYABLE_FAILURE, StepResultType.PERMANENT_FAILURE,
                StepResultType.COMPENSATABLE_FAILURE);
        assertThat(events).extracting(NodeFinished::getJobId, NodeFinished::getNodeId).containsOnly(tuple("job-key", "n9"));
    }

    @Test
    void continuationEvaluatedAsSeed002SerializesIt() {
        ContinuationEvaluated event = continuationEvent(null, "{\"agentId\":\"agent-1\",\"parentAgentId\":null,\"step\":4,"
                + "\"shouldContinue\":false,\"stopReason\":\"retry_limit\",\"resolvedBy\":\"ErrorPolicyCriterion\","
                + "\"decision\":\"AllowStop\",\"evaluations\":[{\"criterion\":\"ErrorPolicyCriterion\","
                + "\"decision\":\"ForbidContinuation\",\"reason\":\"Tool error after 3 consecutive failures (max: 3)\","
                + "\"context\":{\"errorType\":\"tool\",\"consecutiveFailures\":3,\"totalFailures\":3,\"maxRetries\":3,"
                + "\"handling\":\"stop\",\"toolName\":\"search\"}}]}", headers());

        assertThat(event).isEqualTo(ContinuationEvaluated.newBuilder().setAgentId("agent-1").setStep(4)
                .setShouldContinue(false).setStopReason(StopReason.RETRY_LIMIT)
                .setResolvedBy("ErrorPolicyCriterion").setDecision(ContinuationDecision.ALLOW_STOP)
                .setEvaluations(List.of(ContinuationEvaluation.newBuilder().setCriterion("ErrorPolicyCriterion")
                        .setDecision(ContinuationDecision.FORBID_CONTINUATION)
                        .setReason("Tool error after 3 consecutive failures (max: 3)")
                        .setContext("{\"errorType\":\"tool\",\"consecutiveFailures\":3,\"totalFailures\":3,"
                                + "\"maxRetries\":3,\"handling\":\"stop\",\"toolName\":\"search\"}").build()))
                .build());
    }

    @Test
    void continuationEventPayloadWithoutEvaluationsTakesTheAgentFromTheHeader() {
        ContinuationEvaluated event = continuationEvent(null, "{\"step\":1,\"shouldContinue\":true,\"stopReason\":\"completed\","
                + "\"resolvedBy\":\"ToolCallPresenceCheck\"}", headers("agent-id", "agent-2"));

        assertThat(event).isEqualTo(ContinuationEvaluated.newBuilder().setAgentId("agent-2").setStep(1).setShouldContinue(true).setStopReason(StopReason.COMPLETED)
                .setResolvedBy("ToolCallPresenceCheck").build());
    }
}
