package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.PipelineSettings;
import java.util.List;

/**
 * One stage's settings group: it declares the stage's settings in the service's one {@code ConfigDef} and parses them
 * into the stage's settings value, which it hands to the pipeline's builder. A new stage's settings are one class
 * implementing this and one line in the service's list of stages ({@code AgentOutcomesConfig.STAGES}).
 *
 * @param <T> the stage's settings value, as the topology takes it
 */
interface StageConfig<T> {

    /** Declares the stage's settings: name, type, default, validator and meaning, under their {@link Headings}. */
    Declarations declare(Declarations declarations);

    /** The stage's settings named per error code, agent, chain or budget ({@code budget.<name>.limit.usd}); none by default. */
    default List<SettingFamily> families() {
        return List.of();
    }

    /** The stage's value from the parsed settings; one that cannot be used is refused, naming the setting. */
    T parse(ParsedConfig config);

    /** Hands the value to the pipeline's builder: {@code pipeline.scheduler(value)}. */
    PipelineSettings.Builder set(PipelineSettings.Builder pipeline, T value);

    /** Parses the stage's settings onto the pipeline's builder. */
    default PipelineSettings.Builder parseInto(ParsedConfig config, PipelineSettings.Builder pipeline) {
        return set(pipeline, parse(config));
    }
}
