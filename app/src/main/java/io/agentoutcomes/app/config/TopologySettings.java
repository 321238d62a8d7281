package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PriceTable;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.provider.ProviderScope;
import io.agentoutcomes.topology.replay.ReplayLimits;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The analytics, pricing, provider gate, replay and input settings (declared in {@link AgentOutcomesConfig}) as the topology's values; the
 * classification and retry settings are {@link RetryPolicyConfig}'s.
 */
public final class TopologySettings {

    private TopologySettings() {
    }

    /** How the analytics windows are keyed, kept and flushed, and how many label sets the meters show. */
    public static AnalyticsSettings analytics(AgentOutcomesConfig config) {
        return new AnalyticsSettings(Duration.ofMillis(config.getLong(AgentOutcomesConfig.ANALYTICS_FLUSH_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(AgentOutcomesConfig.ANALYTICS_GRACE_MS)),
                config.getInt(AgentOutcomesConfig.ANALYTICS_MAX_LABEL_SETS),
                config.getBoolean(AgentOutcomesConfig.ANALYTICS_ENABLED),
                Dimension.parse(config.getList(AgentOutcomesConfig.ANALYTICS_DIMENSIONS)),
                config.getInt(AgentOutcomesConfig.ANALYTICS_DIMENSION_MAX_VALUES));
    }

    /** The price table (a user's file over the shipped one, if set) and the tolerance of a reported cost. */
    public static PricingSettings pricing(AgentOutcomesConfig config) {
        String file = config.getString(AgentOutcomesConfig.PRICING_FILE).trim();
        return new PricingSettings(file.isEmpty() ? PriceTable.shipped() : PriceTable.withOverrides(Path.of(file)),
                BigDecimal.valueOf(config.getDouble(AgentOutcomesConfig.PRICING_MISMATCH_TOLERANCE)));
    }

    /** The provider gate: pacing by advertised budgets and circuits per scope; its repartition topics as wide as the topics. */
    public static ProviderGateSettings providers(AgentOutcomesConfig config, int partitions) {
        ProviderGateSettings defaults = ProviderGateSettings.defaults();
        ProviderGateSettings.CircuitSettings circuit = new ProviderGateSettings.CircuitSettings(
                config.getBoolean(ProviderGateConfig.PROVIDER_CIRCUIT_ENABLED),
                Duration.ofMillis(config.getLong(ProviderGateConfig.PROVIDER_CIRCUIT_WINDOW_MS)),
                config.getInt(ProviderGateConfig.PROVIDER_CIRCUIT_MIN_OUTCOMES),
                config.getDouble(ProviderGateConfig.PROVIDER_CIRCUIT_FAILURE_RATE),
                Duration.ofMillis(config.getLong(ProviderGateConfig.PROVIDER_CIRCUIT_OPEN_MS)),
                config.getInt(ProviderGateConfig.PROVIDER_CIRCUIT_PROBES),
                errorCodes(config.getList(ProviderGateConfig.PROVIDER_CIRCUIT_ERROR_CODES)));
        ProviderScope.By scope = config.getString(ProviderGateConfig.PROVIDER_SCOPE).equals("provider") ? ProviderScope.By.PROVIDER
                : ProviderScope.By.PROVIDER_MODEL;
        return new ProviderGateSettings(config.getBoolean(ProviderGateConfig.PROVIDER_GATE_ENABLED), scope,
                config.getBoolean(ProviderGateConfig.PROVIDER_PACING_ENABLED),
                Duration.ofMillis(config.getLong(ProviderGateConfig.PROVIDER_PACING_DEFAULT_WINDOW_MS)), circuit,
                defaults.signalInterval(), defaults.checkInterval(), partitions,
                config.getInt(ProviderGateConfig.PROVIDER_MAX_SCOPES),
                Duration.ofMillis(config.getLong(ProviderGateConfig.PROVIDER_IDLE_EXPIRY_MS)), RetryBudgetConfig.parse(config));
    }

    /** Canonical error codes by their wire values; an unknown one is refused, naming it. */
    static Set<ErrorCode> errorCodes(List<?> values) {
        Set<ErrorCode> codes = EnumSet.noneOf(ErrorCode.class);
        for (Object value : values) {
            String code = String.valueOf(value).trim();
            codes.add(ErrorCode.fromValue(code).orElseThrow(() -> new IllegalArgumentException("no error code " + code)));
        }
        return codes;
    }

    /** What a job's replay state keeps at most. */
    public static ReplayLimits replay(AgentOutcomesConfig config) {
        return new ReplayLimits(config.getInt(AgentOutcomesConfig.REPLAY_MAX_PAYLOAD_BYTES),
                config.getInt(AgentOutcomesConfig.REPLAY_MAX_REASON_CHARS),
                config.getInt(AgentOutcomesConfig.REPLAY_MAX_STATE_BYTES));
    }

    /** The largest input record read, and how far ahead of the wall clock its timestamp may be. */
    public static InputLimits input(AgentOutcomesConfig config) {
        return new InputLimits(config.getInt(InputLimits.MAX_RECORD_BYTES_CONFIG),
                Duration.ofMillis(config.getLong(InputLimits.MAX_CLOCK_SKEW_CONFIG)));
    }
}
