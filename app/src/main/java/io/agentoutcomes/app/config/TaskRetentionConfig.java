package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.classify.TaskRetention;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How long classification remembers a task (docs/classification.md), a stage's settings group. */
public final class TaskRetentionConfig implements StageConfig<TaskRetention> {
    public static final String TASK_STATE_RETENTION_MS = "task.state.retention.ms";
    public static final String TASK_STATE_SWEEP_INTERVAL_MS = "task.state.sweep.interval.ms";

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.STATE)
                .define(TASK_STATE_RETENTION_MS, Type.LONG, TaskRetention.DEFAULT_RETENTION.toMillis(), Check.atLeast(1000), "How long a task is remembered after its last completion (or after its retry is due): the de-duplication horizon. Expired tasks are deleted, with tombstones.")
                .define(TASK_STATE_SWEEP_INTERVAL_MS, Type.LONG, TaskRetention.DEFAULT_SWEEP_INTERVAL.toMillis(), Check.atLeast(10), "How often expired tasks are swept from the task stores.");
    }

    @Override
    public TaskRetention parse(ParsedConfig config) {
        return new TaskRetention(Duration.ofMillis(config.getLong(TASK_STATE_RETENTION_MS)),
                Duration.ofMillis(config.getLong(TASK_STATE_SWEEP_INTERVAL_MS)), TaskRetention.DEFAULT_MIN_PER_SWEEP);
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, TaskRetention value) {
        return pipeline.taskRetention(value);
    }
}
