package io.agentoutcomes.topology.classify;

import java.time.Duration;
import java.util.Map;

/**
 * Everything that decides classification and retries, parsed once from configuration: the classifier (policies),
 * the backoff, the delay tiers, the longest delay a retry may wait, and how the scheduler checks for due retries.
 *
 * @param maxDelay           a retry that would wait longer (a provider's {@code retry_after} of centuries, say) is
 *                           stopped and dead-lettered with rule {@value RetryTiming#DELAY_OUT_OF_RANGE}
 * @param schedulerInterval  how often the scheduler checks the wall clock for due retries
 * @param schedulerMaxPerCheck how many due retries one check forwards at most
 * @param dailyLimit         what a retry does when a provider's daily window is exhausted
 * @param confidence         what a success below a confidence threshold gets; off by default
 */
public record RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay,
                          Duration schedulerInterval, int schedulerMaxPerCheck, DailyLimit dailyLimit,
                          ConfidencePolicy confidence) {
    /** The longest wait by default: a day, the longest rate-limit window providers report. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofDays(1);

    public RetryPolicy {
        if (maxDelay.isNegative() || schedulerInterval.isZero() || schedulerInterval.isNegative() || schedulerMaxPerCheck < 1) {
            throw new IllegalArgumentException("a retry policy needs a non-negative maximum delay, a positive scheduler "
                    + "interval and at least one retry per check");
        }
        if (dailyLimit == null || confidence == null) {
            throw new IllegalArgumentException("a retry policy needs a daily-limit handling and a confidence policy");
        }
    }

    /** A policy without confidence rules. */
    public RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay,
                       Duration schedulerInterval, int schedulerMaxPerCheck, DailyLimit dailyLimit) {
        this(classifier, backoff, tiers, maxDelay, schedulerInterval, schedulerMaxPerCheck, dailyLimit,
                ConfidencePolicy.off());
    }

    /** A policy that switches provider on an exhausted daily window (the default). */
    public RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration maxDelay,
                       Duration schedulerInterval, int schedulerMaxPerCheck) {
        this(classifier, backoff, tiers, maxDelay, schedulerInterval, schedulerMaxPerCheck, DailyLimit.SWITCH);
    }

    /** The default error policy and backoff, default tiers, a day's maximum delay, a 20 ms scheduler check. */
    public static RetryPolicy defaults() {
        Backoff backoff = Backoff.defaults();
        return new RetryPolicy(new Classifier(ErrorPolicy.defaults(), Map.of()), backoff,
                RetryTiers.derivedFrom(backoff), DEFAULT_MAX_DELAY, RetrySchedulerTopology.DEFAULT_CHECK_INTERVAL,
                RetrySchedulerTopology.DEFAULT_MAX_PER_CHECK);
    }

    public RetryPolicy withClassifier(Classifier newClassifier) {
        return new RetryPolicy(newClassifier, backoff, tiers, maxDelay, schedulerInterval, schedulerMaxPerCheck, dailyLimit,
                confidence);
    }

    public RetryPolicy withMaxDelay(Duration newMaxDelay) {
        return new RetryPolicy(classifier, backoff, tiers, newMaxDelay, schedulerInterval, schedulerMaxPerCheck, dailyLimit,
                confidence);
    }

    public RetryPolicy withScheduler(Duration interval, int maxPerCheck) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, interval, maxPerCheck, dailyLimit, confidence);
    }

    public RetryPolicy withDailyLimit(DailyLimit newDailyLimit) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, schedulerInterval, schedulerMaxPerCheck, newDailyLimit,
                confidence);
    }

    public RetryPolicy withConfidence(ConfidencePolicy newConfidence) {
        return new RetryPolicy(classifier, backoff, tiers, maxDelay, schedulerInterval, schedulerMaxPerCheck, dailyLimit,
                newConfidence);
    }
}
