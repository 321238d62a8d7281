package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.provider.RetryBudgetSettings;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/** The provider gate's retry budget (docs/classification.md, "Retry budget"), declared and parsed with the provider gate's settings. */
public final class RetryBudgetConfig {
    public static final String PROVIDER_RETRY_BUDGET_ENABLED = "provider.retry.budget.enabled";
    public static final String PROVIDER_RETRY_BUDGET_PERCENT = "provider.retry.budget.percent";
    public static final String PROVIDER_RETRY_BUDGET_MIN_PER_SECOND = "provider.retry.budget.min.per.second";
    public static final String PROVIDER_RETRY_BUDGET_WINDOW_MS = "provider.retry.budget.window.ms";
    public static final String PROVIDER_RETRY_BUDGET_MAX_HOLD_MS = "provider.retry.budget.max.hold.ms";

    private static final RetryBudgetSettings DEFAULTS = RetryBudgetSettings.defaults();

    private RetryBudgetConfig() {
    }

    static Declarations declare(Declarations declarations) {
        return declarations.group(Headings.RETRY_BUDGET)
                .define(PROVIDER_RETRY_BUDGET_ENABLED, Type.BOOLEAN, DEFAULTS.enabled(), null, "Whether the provider gate releases a scope's retries only within its retry budget (a share of its requests, and a floor per second).")
                .define(PROVIDER_RETRY_BUDGET_PERCENT, Type.DOUBLE, DEFAULTS.percent(), Check.between(0.0, 1000.0), "Retries a scope may have released in the window per 100 of its requests seen in it (its outcomes: successes and failures), beside the floor.")
                .define(PROVIDER_RETRY_BUDGET_MIN_PER_SECOND, Type.DOUBLE, DEFAULTS.minPerSecond(), Check.between(0.0, 1_000_000.0), "Retries a scope may have released per second of the window whatever its requests, so a quiet scope can still retry (this times the window is a burst it may take at once).")
                .define(PROVIDER_RETRY_BUDGET_WINDOW_MS, Type.LONG, DEFAULTS.window().toMillis(), Check.between(1_000, 3_600_000), "The sliding window a scope's requests and released retries are counted over.")
                .define(PROVIDER_RETRY_BUDGET_MAX_HOLD_MS, Type.LONG, DEFAULTS.maxHold().toMillis(), Check.atLeast(1000), "A due retry the retry budget has held this long (and the budget spent all along) is stopped: dead-letter, stop reason retry_budget_exhausted, redrivable.");
    }

    /** The retry budget as the gate takes it; a percent and a floor both 0 are refused (nothing could ever retry). */
    static RetryBudgetSettings parse(ParsedConfig config) {
        double percent = config.getDouble(PROVIDER_RETRY_BUDGET_PERCENT);
        double floor = config.getDouble(PROVIDER_RETRY_BUDGET_MIN_PER_SECOND);
        boolean enabled = config.getBoolean(PROVIDER_RETRY_BUDGET_ENABLED);
        if (enabled && percent == 0 && floor == 0) {
            throw new ConfigException(PROVIDER_RETRY_BUDGET_PERCENT + " and "
                    + PROVIDER_RETRY_BUDGET_MIN_PER_SECOND + " are both 0: no retry could ever be released; set "
                    + PROVIDER_RETRY_BUDGET_ENABLED + "=false to stop budgeting instead");
        }
        return new RetryBudgetSettings(enabled, enabled ? percent : DEFAULTS.percent(), enabled ? floor : DEFAULTS.minPerSecond(),
                Duration.ofMillis(config.getLong(PROVIDER_RETRY_BUDGET_WINDOW_MS)),
                Duration.ofMillis(config.getLong(PROVIDER_RETRY_BUDGET_MAX_HOLD_MS)));
    }
}
