package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.pricing.PriceTable;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The analytics, pricing, replay and input settings (declared in {@link AgentOutcomesConfig}) as the topology's values; the
 * classification and retry settings are {@link RetryPolicyConfig}'s.
 */
public final class TopologySettings {

    private TopologySettings() {
    }

    /** How the analytics windows are kept and flushed, and how many label sets the meters show. */
    public static AnalyticsSettings analytics(AgentOutcomesConfig config) {
        return new AnalyticsSettings(Duration.ofMillis(config.getLong(AgentOutcomesConfig.ANALYTICS_FLUSH_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(AgentOutcomesConfig.ANALYTICS_GRACE_MS)),
                config.getInt(AgentOutcomesConfig.ANALYTICS_MAX_LABEL_SETS),
                config.getBoolean(AgentOutcomesConfig.ANALYTICS_ENABLED));
    }

    /** The price table (a user's file over the shipped one, if set) and the tolerance of a reported cost. */
    public static PricingSettings pricing(AgentOutcomesConfig config) {
        String file = config.getString(AgentOutcomesConfig.PRICING_FILE).trim();
        return new PricingSettings(file.isEmpty() ? PriceTable.shipped() : PriceTable.withOverrides(Path.of(file)),
                BigDecimal.valueOf(config.getDouble(AgentOutcomesConfig.PRICING_MISMATCH_TOLERANCE)));
    }

    /** What a job's replay state keeps at most. */
    public static ReplayLimits replay(AgentOutcomesConfig config) {
        return new ReplayLimits(config.getInt(AgentOutcomesConfig.REPLAY_MAX_PAYLOAD_BYTES),
                config.getInt(AgentOutcomesConfig.REPLAY_MAX_REASON_CHARS),
                config.getInt(AgentOutcomesConfig.REPLAY_MAX_STATE_BYTES));
    }

    /** The largest input record read. */
    public static InputLimits input(AgentOutcomesConfig config) {
        return new InputLimits(config.getInt(InputLimits.MAX_RECORD_BYTES_CONFIG));
    }
}
