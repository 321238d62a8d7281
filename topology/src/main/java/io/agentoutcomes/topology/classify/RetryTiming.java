package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.StopReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;

/**
 * When a retry runs: its decision timed by the backoff, handed back at once where a daily window is exhausted and the
 * policy switches provider, or turned into a stop where the delay is longer than the policy allows.
 */
public final class RetryTiming {
    /** The rule of a retry stopped because its delay is longer than the policy allows. */
    public static final String DELAY_OUT_OF_RANGE = "delay-out-of-range";
    /** The rule of a retry handed back at once because a daily window is exhausted. */
    public static final String DAILY_LIMIT_SWITCH = "policy.daily-limit=switch";

    private RetryTiming() {
    }

    /**
     * The verdict with its retry timed; anything but a retry as it is. A retry that would wait longer than the
     * policy's maximum (a provider asking for centuries, say) is a stop instead, so no due time can overflow or lie
     * beyond what the scheduler should hold.
     */
    static Classifier.Verdict timed(Classifier.Verdict verdict, int attempt, RateLimitState rateLimit, RetryPolicy policy,
                                    Instant now, Random random) {
        PolicyDecision decision = verdict.decision();
        if (decision == null || decision.handling() != ErrorHandling.RETRY || decision.delay() != null) {
            // timed already: a retry on a context-window fallback is due at once
            return verdict;
        }
        Optional<DailyWindow> daily = policy.dailyLimit() == DailyLimit.SWITCH ? DailyWindow.exhausted(rateLimit, now)
                : Optional.empty();
        if (daily.isPresent()) {
            return verdict.withDecision(decision.withRule(DAILY_LIMIT_SWITCH)
                    .withDelay(new Backoff.Delay(Duration.ZERO, daily.get().why()), RetryAction.SWITCH_PROVIDER));
        }
        // A success retried for its confidence has no error code: it waits the default base.
        Backoff.Delay delay = policy.backoff().delay(verdict.code() == null ? ErrorCode.UNKNOWN : verdict.code(), attempt,
                rateLimit, now, random);
        if (delay.duration().compareTo(policy.maxDelay()) <= 0) {
            return verdict.withDecision(decision.withDelay(delay, RetryAction.WAIT));
        }
        return verdict.withDecision(decision.stopped(DELAY_OUT_OF_RANGE, DELAY_OUT_OF_RANGE + ": " + delay.why()
                + " is longer than retry.max.delay.ms " + policy.maxDelay().toMillis(), StopReason.ERROR));
    }
}
