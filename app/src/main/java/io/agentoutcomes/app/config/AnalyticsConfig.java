package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How the analytics windows are keyed, kept and flushed (docs/analytics.md), a stage's settings group. */
public final class AnalyticsConfig implements StageConfig<AnalyticsSettings> {
    public static final String ANALYTICS_FLUSH_INTERVAL_MS = "analytics.flush.interval.ms";
    public static final String ANALYTICS_GRACE_MS = "analytics.grace.ms";
    public static final String ANALYTICS_MAX_LABEL_SETS = "analytics.metrics.max.label.sets";
    public static final String ANALYTICS_ENABLED = "analytics.enabled";
    public static final String ANALYTICS_DIMENSIONS = "analytics.dimensions";
    public static final String ANALYTICS_DIMENSION_MAX_VALUES = "analytics.dimension.max.values";

    private static final AnalyticsSettings DEFAULTS = AnalyticsSettings.defaults();
    /** The valid values of {@link #ANALYTICS_DIMENSIONS}, from {@link Dimension}: the core ones, and any attributed one. */
    private static final String DIMENSIONS_VALID = Stream.of(Dimension.values()).filter(d -> !d.attributed())
            .map(Dimension::label).collect(Collectors.joining(", ")) + ", and any of "
            + Stream.of(Dimension.values()).filter(Dimension::attributed).map(Dimension::label).collect(Collectors.joining(", "));

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.ANALYTICS)
                .define(ANALYTICS_FLUSH_INTERVAL_MS, Type.LONG, DEFAULTS.flushInterval().toMillis(), Check.atLeast(1), "How often each task sends its partial aggregates on (docs/analytics.md).")
                .define(ANALYTICS_GRACE_MS, Type.LONG, DEFAULTS.grace().toMillis(), Check.notNegative(), "How long after a window's end late outcomes still update it.")
                .define(ANALYTICS_MAX_LABEL_SETS, Type.INT, DEFAULTS.maxLabelSets(), Check.between(1, 100_000), "Label sets (agent, model, provider, and tenant and team where they key the windows) that get their own Prometheus series, the most expensive first; the rest are summed under _other.")
                .define(ANALYTICS_DIMENSIONS, Type.LIST, DEFAULTS.dimensions().stream().map(Dimension::label).toList(), Check.parsedBy(DIMENSIONS_VALID, v -> Dimension.parseListed((List<?>) v)), "What keys the analytics windows (docs/analytics.md#dimensions): agent, model and provider always, and any of tenant, team, user, tag (the result's first tag). Each one multiplies the aggregates kept and published; tenant and team also label the domain meters, user and tag never do.")
                .define(ANALYTICS_DIMENSION_MAX_VALUES, Type.INT, AnalyticsSettings.DEFAULT_MAX_DIMENSION_VALUES, Check.between(1, 1_000_000), "Distinct values each attribution dimension (tenant, team, user, tag) takes per task and hour window; later values are counted under _other.")
                .define(ANALYTICS_ENABLED, Type.BOOLEAN, DEFAULTS.enabled(), null, "Whether the analytics stage runs at all.");
    }

    @Override
    public AnalyticsSettings parse(ParsedConfig config) {
        return new AnalyticsSettings(Duration.ofMillis(config.getLong(ANALYTICS_FLUSH_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(ANALYTICS_GRACE_MS)), config.getInt(ANALYTICS_MAX_LABEL_SETS),
                config.getBoolean(ANALYTICS_ENABLED), Dimension.parse(config.getList(ANALYTICS_DIMENSIONS)),
                config.getInt(ANALYTICS_DIMENSION_MAX_VALUES));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, AnalyticsSettings value) {
        return pipeline.analytics(value);
    }
}
