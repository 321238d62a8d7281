package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.StopReason;

/**
 * A policy's decision with its explanation: what to do, the rule that decided, the reason text, the failure counts,
 * the retry limit, on a stop why ({@code retry_limit} or {@code error}), and on a retry how long it waits and how it
 * is run. Built once by the policy; every later step (a stop kept, a daily limit, a delay out of range) amends it
 * through a {@code with...} method, which returns a changed copy.
 *
 * @param delay  a retry's delay and why, once timed; null before and for anything but a retry
 * @param action how a timed retry is run (wait, or switch provider at once); null when {@code delay} is
 */
public record PolicyDecision(ErrorHandling handling, String rule, String reason, int consecutiveFailures,
                             int totalFailures, int maxRetries, StopReason stopReason, Backoff.Delay delay,
                             RetryAction action) {

    /** A decision not yet timed. */
    public PolicyDecision(ErrorHandling handling, String rule, String reason, int consecutiveFailures, int totalFailures,
                          int maxRetries, StopReason stopReason) {
        this(handling, rule, reason, consecutiveFailures, totalFailures, maxRetries, stopReason, null, null);
    }

    public PolicyDecision withHandling(ErrorHandling newHandling) {
        return new PolicyDecision(newHandling, rule, reason, consecutiveFailures, totalFailures, maxRetries, stopReason,
                delay, action);
    }

    public PolicyDecision withRule(String newRule) {
        return new PolicyDecision(handling, newRule, reason, consecutiveFailures, totalFailures, maxRetries, stopReason,
                delay, action);
    }

    public PolicyDecision withReason(String newReason) {
        return new PolicyDecision(handling, rule, newReason, consecutiveFailures, totalFailures, maxRetries, stopReason,
                delay, action);
    }

    public PolicyDecision withStopReason(StopReason newStopReason) {
        return new PolicyDecision(handling, rule, reason, consecutiveFailures, totalFailures, maxRetries, newStopReason,
                delay, action);
    }

    /** A retry timed: its delay and how it is run. */
    public PolicyDecision withDelay(Backoff.Delay newDelay, RetryAction newAction) {
        return new PolicyDecision(handling, rule, reason, consecutiveFailures, totalFailures, maxRetries, stopReason,
                newDelay, newAction);
    }

    /** The same decision turned into a stop: by {@code newRule}, for {@code newReason}, with {@code why}. */
    public PolicyDecision stopped(String newRule, String newReason, StopReason why) {
        return new PolicyDecision(ErrorHandling.STOP, newRule, newReason, consecutiveFailures, totalFailures, maxRetries,
                why, null, null);
    }
}
