package io.agentoutcomes.topology.analytics;

import java.time.Duration;

/**
 * @param flushInterval how often each task sends its partial aggregates on (wall clock): the repartition cost and the
 *                      freshness of the window topics trade against each other here
 * @param grace         how long after a window's end late outcomes still update it; then it is published closed
 * @param maxLabelSets  how many agent/model/provider combinations get their own Prometheus series
 * @param enabled       whether the analytics stage runs at all (off: to measure what it costs)
 */
public record AnalyticsSettings(Duration flushInterval, Duration grace, int maxLabelSets, boolean enabled) {
    public static AnalyticsSettings defaults() {
        return new AnalyticsSettings(Duration.ofSeconds(1), Duration.ofMinutes(1), 1000, true);
    }
}
