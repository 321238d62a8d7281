package io.agentoutcomes.topology.analytics;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * @param flushInterval      how often each task sends its partial aggregates on (wall clock): the repartition cost
 *                           and the freshness of the window topics trade against each other here
 * @param grace              how long after a window's end late outcomes still update it; then it is published closed
 * @param maxLabelSets       how many label sets (agent, model, provider and the labelled attribution dimensions) get
 *                           their own Prometheus series
 * @param enabled            whether the analytics stage runs at all (off: to measure what it costs)
 * @param dimensions         what keys the windows: agent, model and provider always, and the attribution dimensions
 *                           listed; each one multiplies the keys, so the default adds only the tenant
 * @param maxDimensionValues distinct values of each attribution dimension per task and hour window; the rest count
 *                           under {@code _other} ({@link DimensionCap})
 */
public record AnalyticsSettings(Duration flushInterval, Duration grace, int maxLabelSets, boolean enabled,
                                Set<Dimension> dimensions, int maxDimensionValues) {
    public static final int DEFAULT_MAX_DIMENSION_VALUES = 1000;

    public AnalyticsSettings {
        Set<Dimension> keyed = EnumSet.copyOf(Dimension.CORE);
        keyed.addAll(dimensions);
        dimensions = Collections.unmodifiableSet(keyed);
        if (maxDimensionValues < 1) {
            throw new IllegalArgumentException("maxDimensionValues must be at least 1, was " + maxDimensionValues);
        }
    }

    /** The default dimensions and cap of their values. */
    public AnalyticsSettings(Duration flushInterval, Duration grace, int maxLabelSets, boolean enabled) {
        this(flushInterval, grace, maxLabelSets, enabled, Dimension.DEFAULTS, DEFAULT_MAX_DIMENSION_VALUES);
    }

    /**
     * Label sets with their own series by default: each costs about 6.8 KB of every scrape (its 19 duration buckets
     * most of it), so 50 keep a scrape within a few hundred kilobytes however many agents there are.
     */
    public static final int DEFAULT_MAX_LABEL_SETS = 50;

    public static AnalyticsSettings defaults() {
        return new AnalyticsSettings(Duration.ofSeconds(1), Duration.ofMinutes(1), DEFAULT_MAX_LABEL_SETS, true);
    }

    /** These settings keyed by other dimensions (the core ones are added), their values capped at {@code maxValues}. */
    public AnalyticsSettings withDimensions(Set<Dimension> keyed, int maxValues) {
        return new AnalyticsSettings(flushInterval, grace, maxLabelSets, enabled, keyed, maxValues);
    }
}
