package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.TaskAttempts;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a task remembers after each of its outcomes: its attempts, its failure counts, a stop; and (kept by
 * {@link TaskStates}) the fingerprints of its recent result ids.
 */
public final class TaskMemory {
    /** How many recent result ids a task remembers for de-duplication. */
    static final int RECENT_RESULT_IDS = 32;
    private static final ByteBuffer NO_FINGERPRINTS = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private TaskMemory() {
    }

    /**
     * The task's counts after an outcome: a stop is kept with its counts; a success or a skip
     * starts the next run afresh (consecutive failures and attempts, not total failures). An ignored failure does not:
     * the trailing failures count every step with an error, whatever the policy did with it, so the next completion
     * is the next attempt and its failure counts the ignored one. The recent result ids are {@link TaskStates}'.
     */
    public static TaskAttempts next(TaskAttempts state, ClassifiedOutcome outcome) {
        if (outcome.getResultType() == ResultType.IN_PROGRESS) {
            return counts(state.getAttempts(), state.getConsecutiveFailures(), state.getTotalFailures(), null);
        }
        Decision decision = outcome.getDecision();
        if (decision != null && decision.getHandling() == ErrorHandling.STOP) {
            // A stopped task stays stopped: its counts go on and a later failure stops again with the same reason.
            return counts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), decision.getStopReason());
        }
        if (decision != null && decision.getHandling() == ErrorHandling.IGNORE) {
            // Ignored, yet a failure: it stays among the trailing failures and the attempts.
            return counts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), null);
        }
        if (outcome.getRetryCount() != null) {
            // Over (a success, a skip): the next run starts afresh, but total failures are the task's.
            return counts(0, 0, decision == null ? state.getTotalFailures() : decision.getTotalFailures(), null);
        }
        return counts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(), decision.getTotalFailures(), null);
    }

    /** A task's counts and stop, with no recent result ids. */
    static TaskAttempts counts(int attempts, int consecutiveFailures, int totalFailures, StopReason stopReason) {
        return new TaskAttempts(attempts, consecutiveFailures, totalFailures, stopReason, List.of(), NO_FINGERPRINTS);
    }
}
