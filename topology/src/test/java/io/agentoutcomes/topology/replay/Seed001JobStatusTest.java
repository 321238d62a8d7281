package io.agentoutcomes.topology.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.JobStatus;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seed 001 §3: on a permanent or a compensatable failure the Runner does "UpdateStatus failed; return": the job's
 * status is failed, whatever follows. That a compensation is pending is information beside the status, not a status
 * of its own; and a step that failed permanently is not re-executed, so a later success of it does not put the job
 * back to running.
 */
class Seed001JobStatusTest {
    private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");

    private static NodeFinished event(String node, int step, int attempt, StepResultType type) {
        return NodeFinished.newBuilder().setJobId("job-1").setNodeId(node).setStepIndex(step).setAttempt(attempt)
                .setResultType(type).setPayloadResults(type == StepResultType.SUCCESS ? "{}" : null)
                .setTimestamp(T.plusSeconds(step * 10L + attempt).toEpochMilli()).build();
    }

    private static JobReplayState fold(List<NodeFinished> events) {
        JobReplayState state = ReplayState.empty("job-1");
        for (NodeFinished event : events) {
            state = ReplayState.apply(state, event, Instant.ofEpochMilli(event.getTimestamp()));
        }
        return state;
    }

    @Test
    void aCompensatableFailureFailsTheJobWithTheCompensationPendingBesideTheStatus() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.SUCCESS),
                event("n1", 1, 0, StepResultType.COMPENSATABLE_FAILURE)));

        assertThat(state.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(state.getCompensationPending()).isTrue();
        assertThat(state.getCompletedNodeIds()).containsExactly("n0");
    }

    @Test
    void aPermanentFailureFailsTheJobWithNoCompensationPending() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.PERMANENT_FAILURE)));

        assertThat(state.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(state.getCompensationPending()).isFalse();
    }

    @Test
    void aRunningJobHasNoCompensationPending() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.SUCCESS),
                event("n1", 1, 0, StepResultType.RETRYABLE_FAILURE)));

        assertThat(state.getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(state.getCompensationPending()).isFalse();
    }

    @Test
    void aLaterSuccessOfANodeThatFailedPermanentlyLeavesTheJobFailed() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.PERMANENT_FAILURE),
                event("n0", 0, 1, StepResultType.SUCCESS)));

        assertThat(state.getStatus()).isEqualTo(JobStatus.FAILED);
        // Seed 001 §5: a success event adds its node to CompletedNodeIDs; it does not undo the job's failure.
        assertThat(state.getCompletedNodeIds()).containsExactly("n0");
        assertThat(state.getNodes()).singleElement().satisfies(node -> assertThat(node.getAttempts())
                .extracting(a -> a.getResultType()).containsExactly(StepResultType.PERMANENT_FAILURE, StepResultType.SUCCESS));
    }

    @Test
    void aLaterSuccessOfANodeWithACompensatableFailureLeavesTheJobFailed() {
        JobReplayState state = fold(List.of(event("n0", 0, 0, StepResultType.COMPENSATABLE_FAILURE),
                event("n0", 0, 1, StepResultType.SUCCESS)));

        assertThat(state.getStatus()).isEqualTo(JobStatus.FAILED);
    }

    @Test
    void aJobThatFailedStaysFailedInAnyArrivalOrder() {
        List<NodeFinished> events = new ArrayList<>(List.of(event("n0", 0, 0, StepResultType.SUCCESS),
                event("n1", 1, 0, StepResultType.PERMANENT_FAILURE), event("n1", 1, 1, StepResultType.SUCCESS),
                event("n2", 2, 0, StepResultType.COMPENSATABLE_FAILURE), event("n2", 2, 1, StepResultType.SUCCESS),
                event("n3", 3, 0, StepResultType.SUCCESS)));
        JobReplayState inOrder = fold(events);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            Collections.shuffle(events, random);
            JobReplayState shuffled = fold(events);
            assertThat(shuffled.getStatus()).isEqualTo(JobStatus.FAILED);
            assertThat(shuffled.getNodes()).isEqualTo(inOrder.getNodes());
            assertThat(shuffled.getCompletedNodeIds()).isEqualTo(inOrder.getCompletedNodeIds());
        }
    }
}
