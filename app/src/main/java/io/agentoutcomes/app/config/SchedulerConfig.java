package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Type;

/** The retry scheduler's settings (docs/classification.md), a stage's settings group. */
public final class SchedulerConfig implements StageConfig<SchedulerSettings> {
    public static final String RETRY_SCHEDULER_INTERVAL_MS = "retry.scheduler.interval.ms";
    public static final String RETRY_SCHEDULER_MAX_PER_CHECK = "retry.scheduler.max.per.check";

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.RETRY)
                .define(RETRY_SCHEDULER_INTERVAL_MS, Type.LONG, SchedulerSettings.DEFAULT_CHECK_INTERVAL.toMillis(), Check.atLeast(1), "How often the scheduler checks for due retries.")
                .define(RETRY_SCHEDULER_MAX_PER_CHECK, Type.INT, SchedulerSettings.DEFAULT_MAX_PER_CHECK, Check.between(1, 1_000_000), "Due retries one check forwards at most; the next check resumes there.");
    }

    /** How the retry scheduler works through the waiting retries. */
    @Override
    public SchedulerSettings parse(ParsedConfig config) {
        return new SchedulerSettings(Duration.ofMillis(config.getLong(RETRY_SCHEDULER_INTERVAL_MS)),
                config.getInt(RETRY_SCHEDULER_MAX_PER_CHECK));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, SchedulerSettings value) {
        return pipeline.scheduler(value);
    }
}
