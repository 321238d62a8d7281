package io.agentoutcomes.topology.classify;

import io.agentoutcomes.topology.fallback.FallbackChains;
import java.time.Duration;
import java.util.Map;

/**
 * Everything that decides classification and retries, parsed once from configuration: the classifier (policies),
 * the backoff, the delay tiers, and the longest delay a retry may wait. How the scheduler works through the waiting
 * retries is its own ({@code schedule.SchedulerSettings}).
 *
 * @param maxDelay           a retry that would wait longer (a provider's {@code retry_after} of centuries, say) is
 *                           stopped and dead-lettered with rule {@value RetryTiming#DELAY_OUT_OF_RANGE}
 * @param dailyLimit         what a retry does when a provider's daily window is exhausted
 * @param confidence         what a success below a confidence threshold gets; off by default
 * @param fallbacks          the declared fallback chains (issue 33): a context-window chain makes a token-limit failure
 *                           a retry on a larger model; the provider gate takes the others
 */
public record RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay,
                          DailyLimit dailyLimit, ConfidencePolicy confidence, FallbackChains fallbacks) {
    /** The longest wait by default: a day, the longest rate-limit window providers report. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofDays(1);

    public RetryPolicy {
        if (maxDelay.isNegative()) {
            throw new IllegalArgumentException("a retry policy needs a non-negative maximum delay");
        }
        if (dailyLimit == null || confidence == null || fallbacks == null) {
            throw new IllegalArgumentException("a retry policy needs a daily-limit handling, a confidence policy and fallback chains");
        }
    }

    /** A policy without fallback chains. */
    public RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay, DailyLimit dailyLimit,
                       ConfidencePolicy confidence) {
        this(classifier, backoff, tiers, maxDelay, dailyLimit, confidence, FallbackChains.NONE);
    }

    /** A policy without confidence rules. */
    public RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay, DailyLimit dailyLimit) {
        this(classifier, backoff, tiers, maxDelay, dailyLimit, ConfidencePolicy.off());
    }

    /** A policy that switches provider on an exhausted daily window (the default). */
    public RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay) {
        this(classifier, backoff, tiers, maxDelay, DailyLimit.SWITCH);
    }

    /** The default error policy and backoff, the declared default tiers, a day's maximum delay. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(new Classifier(ErrorPolicy.defaults(), Map.of()), Backoff.defaults(),
                RetryTiers.defaults(), DEFAULT_MAX_DELAY);
    }

    public RetryPolicy withClassifier(Classifier newClassifier) {
        return new RetryPolicy(newClassifier, backoff, tiers, maxDelay, dailyLimit, confidence, fallbacks);
    }

    public RetryPolicy withMaxDelay(Duration newMaxDelay) {
        return new RetryPolicy(classifier, backoff, tiers, newMaxDelay, dailyLimit, confidence, fallbacks);
    }

    public RetryPolicy withDailyLimit(DailyLimit newDailyLimit) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, newDailyLimit, confidence, fallbacks);
    }

    public RetryPolicy withConfidence(ConfidencePolicy newConfidence) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, dailyLimit, newConfidence, fallbacks);
    }

    public RetryPolicy withFallbacks(FallbackChains newFallbacks) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, dailyLimit, confidence, newFallbacks);
    }
}
