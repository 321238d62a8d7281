package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ResultType;

/** What an outcome asks for, as the router sends it on and the analytics count it. */
public final class Outcomes {
    private Outcomes() {
    }

    /** Whether an outcome is retried (a retryable failure, or a success retried for its confidence). */
    public static boolean isRetry(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.RETRY;
    }

    /** Whether an outcome stops its task (it is dead-lettered unless compensatable). */
    public static boolean isStop(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.STOP;
    }

    /**
     * Whether an outcome goes to {@code dead-letter}: a stop that is not a compensatable failure (those go to
     * {@code compensations}). {@link OutcomeRouter} routes by it and the analytics count by it.
     */
    public static boolean isDeadLetter(ClassifiedOutcome outcome) {
        return isStop(outcome) && outcome.getResultType() != ResultType.COMPENSATABLE_FAILURE;
    }
}
