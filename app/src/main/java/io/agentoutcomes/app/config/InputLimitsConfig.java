package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.ingest.InputLimits;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Type;

/** How large one input record may be, and how far ahead its timestamp (docs/ingestion.md), a stage's settings group. */
public final class InputLimitsConfig implements StageConfig<InputLimits> {

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.LIMITS)
                .define(InputLimits.MAX_RECORD_BYTES_CONFIG, Type.INT, InputLimits.defaults().maxRecordBytes(), Check.atLeast(1024), "The longest input value accepted; longer ones go to rejected-input without their bytes.")
                .define(InputLimits.MAX_CLOCK_SKEW_CONFIG, Type.LONG, InputLimits.DEFAULT_MAX_CLOCK_SKEW.toMillis(), Check.between(0, 3_600_000), "How far ahead of the wall clock an input record's timestamp (its event time) may be when read; one further ahead is read at the wall clock's time, its own kept in the header producer-timestamp, and counted (agent_outcomes_input_timestamps_clamped_total; docs/ingestion.md).");
    }

    @Override
    public InputLimits parse(ParsedConfig config) {
        return new InputLimits(config.getInt(InputLimits.MAX_RECORD_BYTES_CONFIG),
                Duration.ofMillis(config.getLong(InputLimits.MAX_CLOCK_SKEW_CONFIG)));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, InputLimits value) {
        return pipeline.input(value);
    }
}
