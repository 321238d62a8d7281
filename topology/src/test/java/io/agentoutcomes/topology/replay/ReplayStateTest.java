package io.agentoutcomes.topology.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.JobStatus;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seed 001's replay table, row by row, and the fold's indifference to duplicates and order. */
class ReplayStateTest {
    private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");

    private static NodeFinished event(String node, int step, int attempt, StepResultType type, String payload) {
        return NodeFinished.newBuilder().setJobId("job-1").setNodeId(node).setStepIndex(step).setAttempt(attempt)
                .setResultType(type).setReason(type == null || type == StepResultType.SUCCESS ? null : "it broke")
                .setPayloadResults(payload).setDurationMs(10L).setTraceSpanId("span-" + node + attempt)
                .setTimestamp(T.plusSeconds(step * 10L + attempt).toEpochMilli()).build();
    }

    private static JobReplayState fold(List<NodeFinished> events) {
        JobReplayState state = ReplayState.empty("job-1");
        for (NodeFinished event : events) {
            state = ReplayState.apply(state, event, Instant.ofEpochMilli(event.getTimestamp()));
        }
        return state;
    }

    /** Seed 001 §5's table, and §3's "a retryable failure that is not retried fails the job" (the pipeline's stop). */
    @ParameterizedTest(name = "{0}, pipeline stop {4}: completes {1}, payload updated {2}, job {3}")
    @CsvSource({
        "SUCCESS, true, true, RUNNING,",
        "RETRYABLE_FAILURE, false, false, RUNNING,",
        "PERMANENT_FAILURE, false, false, FAILED,",
        "COMPENSATABLE_FAILURE, false, false, FAILED,",
        "RETRYABLE_FAILURE, false, false, FAILED, RETRY_LIMIT",
        "RETRYABLE_FAILURE, false, false, FAILED, ERROR",
        "PERMANENT_FAILURE, false, false, FAILED, ERROR",
        "COMPENSATABLE_FAILURE, false, false, FAILED, ERROR",
    })
    void seed001ReplayTable(StepResultType type, boolean completes, boolean payloadUpdated, JobStatus status,
                            StopReason stop) {
        NodeFinished n1 = event("n1", 1, 0, type, "{\"n1\":2}");
        JobReplayState state = ReplayState.apply(fold(List.of(event("n0", 0, 0, StepResultType.SUCCESS, "{\"n0\":1}"))),
                n1, Instant.ofEpochMilli(n1.getTimestamp()), stop);
        assertThat(state.getNodes().get(1).getStopReason()).isEqualTo(stop);

        assertThat(state.getCompletedNodeIds().contains("n1")).isEqualTo(completes);
        assertThat(state.getPayloadResults().containsKey("n1")).isEqualTo(payloadUpdated);
        assertThat(state.getStatus()).isEqualTo(status);
        assertThat(state.getCursorNode()).isEqualTo(completes ? "n1" : "n0");
        assertThat(state.getNodes().get(1).getAttempts()).singleElement().satisfies(a -> {
            assertThat(a.getResultType()).isEqualTo(type);
            assertThat(a.getReason()).isEqualTo(type == StepResultType.SUCCESS ? null : "it broke");
            assertThat(a.getDurationMs()).isEqualTo(10L);
            assertThat(a.getTraceSpanId()).isEqualTo("span-n10");
        });
    }

    @Test
    void seed001AStopOfTheSameEventFailsTheJobWhicheverArrivesFirst() {
        NodeFinished failure = event("n0", 0, 0, StepResultType.RETRYABLE_FAILURE, null);
        JobReplayState empty = ReplayState.empty("job-1");

        JobReplayState stopFirst = ReplayState.apply(ReplayState.apply(empty, failure, T, StopReason.RETRY_LIMIT), failure, T);
        JobReplayState stopLast = ReplayState.apply(ReplayState.apply(empty, failure, T), failure, T, StopReason.RETRY_LIMIT);

        assertThat(stopFirst).isEqualTo(stopLast);
        assertThat(stopLast.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(stopLast.getNodes().get(0).getAttempts()).singleElement()
                .satisfies(a -> assertThat(a.getStopReason()).isEqualTo(StopReason.RETRY_LIMIT));
    }

    @Test
    void seed001AStoppedNodeThatLaterSucceedsIsCompletedAndTheJobRunsAgain() {
        JobReplayState stopped = ReplayState.apply(ReplayState.empty("job-1"),
                event("n0", 0, 4, StepResultType.RETRYABLE_FAILURE, null), T, StopReason.RETRY_LIMIT);
        JobReplayState done = ReplayState.apply(stopped, event("n0", 0, 5, StepResultType.SUCCESS, "{}"), T);

        assertThat(stopped.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(done.getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(done.getNodes().get(0).getStopReason()).isNull();
    }

    @Test
    void aMissingResultTypeReplaysAsSuccess() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, null, "{\"old\":true}")));

        assertThat(state.getCompletedNodeIds()).containsExactly("n0");
        assertThat(state.getPayloadResults()).isEqualTo(Map.of("n0", "{\"old\":true}"));
        assertThat(state.getNodes().get(0).getAttempts().get(0).getResultType()).isEqualTo(StepResultType.SUCCESS);
        assertThat(state.getNodes().get(0).getAttempts().get(0).getResultTypeMissing()).isTrue();
        assertThat(state.getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void aRetriedNodeCompletesOnItsSuccessfulAttempt() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.RETRYABLE_FAILURE, null),
                event("n0", 0, 1, StepResultType.SUCCESS, "{\"ok\":1}")));

        assertThat(state.getCompletedNodeIds()).containsExactly("n0");
        assertThat(state.getNodes().get(0).getAttempts()).extracting(a -> a.getAttempt() + ":" + a.getResultType())
                .containsExactly("0:RETRYABLE_FAILURE", "1:SUCCESS");
        assertThat(state.getStatus()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void aDuplicateEventChangesNothing() {
        NodeFinished success = event("n0", 0, 0, StepResultType.SUCCESS, "{\"a\":1}");
        JobReplayState once = fold(List.of(success));

        assertThat(ReplayState.apply(once, success, Instant.ofEpochMilli(success.getTimestamp()))).isEqualTo(once);
        assertThat(ReplayState.apply(once, success, Instant.ofEpochMilli(success.getTimestamp()).plusSeconds(60))).isEqualTo(once);
    }

    @Test
    void anyArrivalOrderGivesTheSameState() {
        List<NodeFinished> events = List.of(
                event("n0", 0, 0, StepResultType.SUCCESS, "{\"n0\":1}"),
                event("n1", 1, 0, StepResultType.RETRYABLE_FAILURE, null),
                event("n1", 1, 1, StepResultType.SUCCESS, "{\"n1\":\"second\"}"),
                event("n2", 2, 0, StepResultType.SUCCESS, "{\"n2\":3}"),
                event("n3", 3, 0, StepResultType.PERMANENT_FAILURE, "{\"partial\":true}"),
                event("n2", 2, 0, StepResultType.SUCCESS, "{\"n2\":3}"));
        JobReplayState inOrder = fold(events);
        Random random = new Random(7);
        for (int i = 0; i < 50; i++) {
            List<NodeFinished> shuffled = new ArrayList<>(events);
            Collections.shuffle(shuffled, random);
            assertThat(fold(shuffled)).isEqualTo(inOrder);
        }
        assertThat(inOrder.getCompletedNodeIds()).containsExactly("n0", "n1", "n2");
        assertThat(inOrder.getCursorNode()).isEqualTo("n2");
        assertThat(inOrder.getPayloadResults()).isEqualTo(Map.of("n0", "{\"n0\":1}", "n1", "{\"n1\":\"second\"}",
                "n2", "{\"n2\":3}"));
        assertThat(inOrder.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(inOrder.getUpdatedAt()).isEqualTo(T.plusSeconds(30).toEpochMilli());
    }
}
