package io.agentoutcomes.app.config;

import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Settings parsed with their declarations, as a settings group reads them: the declared ones by their types
 * ({@link AbstractConfig}), the families' as given, and the topics' partitions, which stages' repartition topics take.
 */
public abstract class ParsedConfig extends AbstractConfig {
    private final Map<String, String> families;

    protected ParsedConfig(ConfigDef definition, Map<String, ?> settings, Map<String, String> families) {
        super(definition, settings, false);
        this.families = Map.copyOf(families);
    }

    /** The settings of the families given ({@code policy.code.llm-timeout}, {@code budget.acme.limit.usd}, ...), as they are. */
    public Map<String, String> families() {
        return families;
    }

    /** Partitions of the topics the service creates, which the stages' repartition topics take. */
    public abstract int partitions();
}
