package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.topology.classify.Backoff;
import io.agentoutcomes.topology.classify.Classifier;
import io.agentoutcomes.topology.classify.ConfidencePolicy;
import io.agentoutcomes.topology.classify.DailyLimit;
import io.agentoutcomes.topology.classify.ErrorPolicy;
import io.agentoutcomes.topology.classify.Jitter;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns the classification, backoff and retry settings into the topology's {@link RetryPolicy}. The
 * settings are declared in {@link AgentOutcomesConfig} (defaults, validators); the ones named per code, category or
 * agent ({@link AgentOutcomesConfig#FAMILIES}) are parsed here, where their parts are understood:
 *
 * <pre>
 * policy.category.&lt;tool|model|validation|rate_limit|timeout|unknown&gt;=stop | retry | ignore
 * policy.code.&lt;canonical code, e.g. llm-timeout&gt;=stop | retry | ignore
 * policy.agent.&lt;agent id&gt;.preset / .max.retries / .max.attempts / .category.&lt;c&gt; / .code.&lt;code&gt;   (starts from the global policy)
 * backoff.base.&lt;code&gt;.ms=5000
 * </pre>
 *
 * Each rule remembers the setting that made it ({@link ErrorPolicy.Settings}), so a decision names it:
 * {@code policy.code.llm-rate-limit=stop}, {@code policy.agent.billing-bot.category.tool=retry}.
 * {@code max.retries} counts failures, not retries (5: at most 5 attempts, 4 retries); {@code max.attempts} is the
 * same number under the name Temporal and Spring Retry use, and only one of them may be set.
 */
public final class RetryPolicyConfig {

    private RetryPolicyConfig() {
    }

    /**
     * @param config   the parsed declared settings
     * @param families the settings of {@link AgentOutcomesConfig#FAMILIES}, as given
     */
    public static RetryPolicy parse(AgentOutcomesConfig config, Map<String, String> families) {
        Map<String, String> sorted = new TreeMap<>(families);
        String preset = config.getString(AgentOutcomesConfig.POLICY_PRESET);
        ErrorPolicy start = ErrorPolicy.preset(preset).orElseThrow();
        if (config.originals().containsKey(AgentOutcomesConfig.POLICY_PRESET)) {
            start = start.chosenBy(AgentOutcomesConfig.POLICY_PRESET + "=" + preset.trim());
        }
        start = withLimit(start, AgentOutcomesConfig.POLICY_MAX_RETRIES, config.getInt(AgentOutcomesConfig.POLICY_MAX_RETRIES),
                AgentOutcomesConfig.POLICY_MAX_ATTEMPTS, config.getInt(AgentOutcomesConfig.POLICY_MAX_ATTEMPTS));
        ErrorPolicy global = policy(sorted, "policy.", start);
        Map<String, ErrorPolicy> agents = new HashMap<>();
        for (String agent : agentIds(sorted)) {
            agents.put(agent, policy(sorted, "policy.agent." + agent + ".", global));
        }
        Backoff backoff = backoff(config, sorted);
        return new RetryPolicy(new Classifier(global, agents), backoff,
                RetryTiers.of(durations(AgentOutcomesConfig.RETRY_TIERS, config.getList(AgentOutcomesConfig.RETRY_TIERS))),
                Duration.ofMillis(config.getLong(AgentOutcomesConfig.RETRY_MAX_DELAY_MS)),
                DailyLimit.valueOf(config.getString(AgentOutcomesConfig.POLICY_DAILY_LIMIT).trim().toUpperCase(Locale.ROOT)),
                new ConfidencePolicy(config.getDouble(ConfidencePolicy.RETRY_BELOW_CONFIG),
                        config.getDouble(ConfidencePolicy.VERIFY_BELOW_CONFIG)), FallbackConfig.parse(families));
    }

    /** How the retry scheduler works through the waiting retries. */
    public static SchedulerSettings scheduler(AgentOutcomesConfig config) {
        return new SchedulerSettings(Duration.ofMillis(config.getLong(AgentOutcomesConfig.RETRY_SCHEDULER_INTERVAL_MS)),
                config.getInt(AgentOutcomesConfig.RETRY_SCHEDULER_MAX_PER_CHECK));
    }

    private static ErrorPolicy policy(Map<String, String> settings, String prefix, ErrorPolicy start) {
        ErrorPolicy policy = start;
        String preset = settings.get(prefix + "preset");
        if (preset != null) {
            policy = ErrorPolicy.preset(preset).orElseThrow(() -> new ConfigLoader.ConfigError(prefix + "preset is '" + preset
                    + "': expected default, stop-on-any-error, retry-tool-errors, ignore-tool-errors or retry-all"))
                    .chosenBy(prefix + "preset=" + preset.trim());
        }
        String retries = prefix + "max.retries";
        String attempts = prefix + "max.attempts";
        policy = withLimit(policy, retries, settings.containsKey(retries) ? (int) number(settings, retries, 0) : null,
                attempts, settings.containsKey(attempts) ? (int) number(settings, attempts, 0) : null);
        for (Map.Entry<String, String> entry : settings.entrySet()) {
            String rest = entry.getKey().startsWith(prefix) ? entry.getKey().substring(prefix.length()) : null;
            if (rest == null || rest.startsWith("agent.") && prefix.equals("policy.")) {
                continue;
            }
            String setting = entry.getKey() + "=" + entry.getValue().trim();
            if (rest.startsWith("category.")) {
                policy = policy.withCategory(category(entry.getKey(), rest.substring("category.".length())),
                        handling(entry.getKey(), entry.getValue()), setting);
            } else if (rest.startsWith("code.")) {
                policy = policy.withCode(code(entry.getKey(), rest.substring("code.".length())),
                        handling(entry.getKey(), entry.getValue()), setting);
            }
        }
        return policy;
    }

    /**
     * The retry limit from {@code ...max.retries} or {@code ...max.attempts}: one number under two names (the policy's
     * maxRetries counts failures, so it is the attempts), at most one of them set.
     */
    private static ErrorPolicy withLimit(ErrorPolicy policy, String retriesKey, Integer retries, String attemptsKey,
                                         Integer attempts) {
        if (retries != null && attempts != null) {
            throw new ConfigLoader.ConfigError(retriesKey + " and " + attemptsKey + " are one limit under two names ("
                    + retriesKey + "=5 is " + attemptsKey + "=5: at most 5 attempts, 4 retries): set one of them");
        }
        if (attempts != null && attempts < 1) {
            throw new ConfigLoader.ConfigError(attemptsKey + " must be at least 1 (the first attempt), was " + attempts);
        }
        if (retries != null) {
            return policy.withMaxRetries(retries, retriesKey + "=" + retries);
        }
        return attempts == null ? policy : policy.withMaxRetries(attempts, attemptsKey + "=" + attempts);
    }

    private static List<String> agentIds(Map<String, String> settings) {
        List<String> agents = new ArrayList<>();
        for (String key : settings.keySet()) {
            if (!key.startsWith("policy.agent.")) {
                continue;
            }
            String rest = key.substring("policy.agent.".length());
            int end = Math.max(Math.max(rest.lastIndexOf(".category."), rest.lastIndexOf(".code.")),
                    Math.max(rest.endsWith(".preset") ? rest.length() - ".preset".length() : -1,
                            Math.max(rest.endsWith(".max.retries") ? rest.length() - ".max.retries".length() : -1,
                                    rest.endsWith(".max.attempts") ? rest.length() - ".max.attempts".length() : -1)));
            if (end <= 0) {
                throw new ConfigLoader.ConfigError(key + " is not a policy setting: expected policy.agent.<agent id>."
                        + "preset, .max.retries, .max.attempts, .category.<category> or .code.<code>");
            }
            String agent = rest.substring(0, end);
            if (!agents.contains(agent)) {
                agents.add(agent);
            }
        }
        return agents;
    }

    private static Backoff backoff(AgentOutcomesConfig config, Map<String, String> families) {
        Backoff backoff = Backoff.defaults();
        for (Map.Entry<String, String> entry : families.entrySet()) {
            String key = entry.getKey();
            if (key.startsWith("backoff.base.") && key.endsWith(".ms")) {
                String code = key.substring("backoff.base.".length(), key.length() - ".ms".length());
                backoff = backoff.withBase(code(key, code), Duration.ofMillis(number(families, key, 0)));
            }
        }
        try {
            return new Backoff(backoff.bases(), Duration.ofMillis(config.getLong(AgentOutcomesConfig.BACKOFF_DEFAULT_BASE_MS)),
                    Duration.ofMillis(config.getLong(AgentOutcomesConfig.BACKOFF_CAP_MS)),
                    config.getDouble(AgentOutcomesConfig.BACKOFF_MULTIPLIER),
                    Jitter.parse(config.getString(AgentOutcomesConfig.BACKOFF_JITTER)));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError("backoff settings: " + e.getMessage());
        }
    }

    private static ErrorHandling handling(String key, String value) {
        try {
            return ErrorHandling.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError(key + " is '" + value + "': expected stop, retry or ignore");
        }
    }

    private static ErrorCategory category(String key, String name) {
        try {
            return ErrorCategory.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError(key + ": '" + name + "' is not a category: expected one of "
                    + Arrays.stream(ErrorCategory.values()).map(c -> c.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", ")));
        }
    }

    private static ErrorCode code(String key, String value) {
        return ErrorCode.fromValue(value.trim()).orElseThrow(() -> new ConfigLoader.ConfigError(key + ": '" + value
                + "' is not a canonical error code: expected one of "
                + Arrays.stream(ErrorCode.values()).map(ErrorCode::value).collect(Collectors.joining(", "))));
    }

    private static long number(Map<String, String> settings, String key, long fallback) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            long number = Long.parseLong(value.trim());
            if (number < 0) {
                throw new ConfigLoader.ConfigError(key + " must not be negative, was " + number);
            }
            return number;
        } catch (NumberFormatException e) {
            throw new ConfigLoader.ConfigError(key + " must be a whole number, was '" + value + "'");
        }
    }

    /** Durations like 500ms, 5s, 2m or 1h; at least one. */
    static List<Duration> durations(String key, List<?> values) {
        if (values.isEmpty()) {
            throw new ConfigLoader.ConfigError(key + " needs at least one duration like 500ms, 5s, 2m or 1h");
        }
        List<Duration> durations = new ArrayList<>();
        for (Object value : values) {
            String part = String.valueOf(value);
            String text = part.trim().toLowerCase(Locale.ROOT);
            try {
                if (text.endsWith("ms")) {
                    durations.add(Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2))));
                } else if (text.endsWith("s")) {
                    durations.add(Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1))));
                } else if (text.endsWith("m")) {
                    durations.add(Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1))));
                } else if (text.endsWith("h")) {
                    durations.add(Duration.ofHours(Long.parseLong(text.substring(0, text.length() - 1))));
                } else {
                    throw new NumberFormatException(text);
                }
            } catch (NumberFormatException e) {
                throw new ConfigLoader.ConfigError(key + ": '" + part.trim() + "' is not a duration like 500ms, 5s, 2m or 1h");
            }
        }
        return durations;
    }
}
