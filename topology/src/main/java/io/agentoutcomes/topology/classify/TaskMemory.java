package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.TaskAttempts;
import java.util.ArrayList;
import java.util.List;

/** What a task remembers after each of its outcomes: its attempts, its failure counts, a stop, recent result ids. */
public final class TaskMemory {
    /** How many recent result ids a task remembers for de-duplication. */
    static final int RECENT_RESULT_IDS = 32;

    private TaskMemory() {
    }

    /**
     * The task's state after an outcome, the result id remembered: a stop is kept with its counts; a success or a skip
     * starts the next run afresh (consecutive failures and attempts, not total failures). An ignored failure does not:
     * the trailing failures count every step with an error, whatever the policy did with it, so the next completion
     * is the next attempt and its failure counts the ignored one.
     */
    public static TaskAttempts next(TaskAttempts state, ClassifiedOutcome outcome) {
        List<String> seen = state.getRecentResultIds();
        int keep = Math.min(seen.size(), RECENT_RESULT_IDS - 1);
        List<String> recent = new ArrayList<>(keep + 1);
        recent.addAll(seen.subList(seen.size() - keep, seen.size()));
        recent.add(outcome.getResultId());
        if (outcome.getResultType() == ResultType.IN_PROGRESS) {
            return new TaskAttempts(state.getAttempts(), state.getConsecutiveFailures(), state.getTotalFailures(), null,
                    recent);
        }
        Decision decision = outcome.getDecision();
        if (decision != null && decision.getHandling() == ErrorHandling.STOP) {
            // A stopped task stays stopped: its counts go on and a later failure stops again with the same reason.
            return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), decision.getStopReason(), recent);
        }
        if (decision != null && decision.getHandling() == ErrorHandling.IGNORE) {
            // Ignored, yet a failure: it stays among the trailing failures and the attempts.
            return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), null, recent);
        }
        if (outcome.getRetryCount() != null) {
            // Over (a success, a skip): the next run starts afresh, but total failures are the task's.
            return new TaskAttempts(0, 0, decision == null ? state.getTotalFailures() : decision.getTotalFailures(), null,
                    recent);
        }
        return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(), decision.getTotalFailures(),
                null, recent);
    }
}
