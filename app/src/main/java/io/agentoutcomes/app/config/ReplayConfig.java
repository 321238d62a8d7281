package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import org.apache.kafka.common.config.ConfigDef.Type;

/** What a job's replay state keeps at most (docs/replay.md), a stage's settings group. */
public final class ReplayConfig implements StageConfig<ReplayLimits> {
    public static final String REPLAY_MAX_PAYLOAD_BYTES = "replay.max.payload.bytes";
    public static final String REPLAY_MAX_REASON_CHARS = "replay.max.reason.chars";
    public static final String REPLAY_MAX_STATE_BYTES = "replay.max.state.bytes";

    private static final ReplayLimits DEFAULTS = ReplayLimits.defaults();

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.LIMITS)
                .define(REPLAY_MAX_PAYLOAD_BYTES, Type.INT, DEFAULTS.maxPayloadBytes(), Check.atLeast(64), "A node's payload longer than this is kept in a job's replay state as a summary with its size.")
                .define(REPLAY_MAX_REASON_CHARS, Type.INT, DEFAULTS.maxReasonChars(), Check.atLeast(16), "A reason longer than this is cut, saying how long it was.")
                .define(REPLAY_MAX_STATE_BYTES, Type.INT, DEFAULTS.maxStateBytes(), Check.atLeast(4096), "A job's replay state at most; past it the largest payloads are summarized, then the event is rejected.");
    }

    @Override
    public ReplayLimits parse(ParsedConfig config) {
        return new ReplayLimits(config.getInt(REPLAY_MAX_PAYLOAD_BYTES), config.getInt(REPLAY_MAX_REASON_CHARS),
                config.getInt(REPLAY_MAX_STATE_BYTES));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, ReplayLimits value) {
        return pipeline.replay(value);
    }
}
