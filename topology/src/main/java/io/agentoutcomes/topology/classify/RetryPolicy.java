package io.agentoutcomes.topology.classify;

import java.time.Duration;
import java.util.Map;

/**
 * Everything that decides classification and retries, parsed once from configuration: the classifier (policies),
 * the backoff, the delay tiers, and how often the scheduler checks for due retries.
 */
public record RetryPolicy(Classifier classifier, Backoff backoff, RetryTiers tiers, Duration schedulerInterval) {

    /** Seed 000's default policy and backoff table, default tiers, a 20 ms scheduler check. */
    public static RetryPolicy defaults() {
        Backoff backoff = Backoff.seed000();
        return new RetryPolicy(new Classifier(ErrorPolicy.seed000Default(), Map.of()), backoff,
                RetryTiers.derivedFrom(backoff), RetrySchedulerTopology.DEFAULT_CHECK_INTERVAL);
    }
}
