package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.classify.Backoff;
import io.agentoutcomes.topology.classify.Classifier;
import io.agentoutcomes.topology.classify.ConfidencePolicy;
import io.agentoutcomes.topology.classify.DailyLimit;
import io.agentoutcomes.topology.classify.ErrorCode;
import io.agentoutcomes.topology.classify.ErrorPolicy;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetrySchedulerTopology;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.replay.ReplayLimits;
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
 * Parses the {@code policy.*}, {@code backoff.*} and {@code retry.*} settings into a {@link RetryPolicy}:
 *
 * <pre>
 * policy.preset=default | stop-on-any-error | retry-tool-errors | ignore-tool-errors | retry-all
 * policy.max.retries=5
 * policy.category.&lt;tool|model|validation|rate_limit|timeout|unknown&gt;=stop | retry | ignore
 * policy.code.&lt;canonical code, e.g. llm-timeout&gt;=stop | retry | ignore
 * policy.agent.&lt;agent id&gt;.preset / .max.retries / .category.&lt;c&gt; / .code.&lt;code&gt;   (starts from the global policy)
 * backoff.base.&lt;code&gt;.ms=5000   backoff.default.base.ms=2000   backoff.cap.ms=30000
 * backoff.multiplier=2   backoff.jitter=0.2
 * retry.tiers=1s,5s,30s   (default: one per backoff base and the cap, then "long")
 * retry.max.delay.ms=86400000   (a longer wait is a stop: dead-letter, rule delay-out-of-range)
 * policy.daily-limit=switch | wait   (an exhausted daily rate-limit window: retry now on another provider, or wait)
 * policy.confidence.retry-below=0.8   policy.confidence.verify-below=0.9   (seed 000; off unless set)
 * retry.scheduler.interval.ms=20   retry.scheduler.max.per.check=10000
 * </pre>
 */
public final class PolicyConfig {
    static final List<String> PREFIXES = List.of("policy.", "backoff.", "retry.", "analytics.", "replay.", "input.");

    private PolicyConfig() {
    }

    /** Whether a setting belongs here rather than to Kafka. */
    static boolean owns(String key) {
        return PREFIXES.stream().anyMatch(key::startsWith);
    }

    public static RetryPolicy parse(Map<String, String> settings) {
        Map<String, String> sorted = new TreeMap<>(settings);
        ErrorPolicy global = policy(sorted, "policy.", ErrorPolicy.seed000Default());
        Map<String, ErrorPolicy> agents = new HashMap<>();
        for (String agent : agentIds(sorted)) {
            agents.put(agent, policy(sorted, "policy.agent." + agent + ".", global));
        }
        Backoff backoff = backoff(sorted);
        RetryTiers tiers = sorted.containsKey("retry.tiers") ? RetryTiers.of(durations("retry.tiers", sorted.get("retry.tiers")))
                : RetryTiers.derivedFrom(backoff);
        Duration interval = Duration.ofMillis(number(sorted, "retry.scheduler.interval.ms", 20));
        if (interval.isZero() || interval.isNegative()) {
            throw new ConfigLoader.ConfigError("retry.scheduler.interval.ms must be at least 1");
        }
        long maxPerCheck = number(sorted, "retry.scheduler.max.per.check", RetrySchedulerTopology.DEFAULT_MAX_PER_CHECK);
        if (maxPerCheck < 1 || maxPerCheck > 1_000_000) {
            throw new ConfigLoader.ConfigError("retry.scheduler.max.per.check must be between 1 and 1000000, was " + maxPerCheck);
        }
        Duration maxDelay = Duration.ofMillis(number(sorted, "retry.max.delay.ms", RetryPolicy.DEFAULT_MAX_DELAY.toMillis()));
        DailyLimit dailyLimit = dailyLimit(sorted.getOrDefault("policy.daily-limit", "switch"));
        ConfidencePolicy confidence = new ConfidencePolicy(threshold(sorted, ConfidencePolicy.RETRY_BELOW_CONFIG),
                threshold(sorted, ConfidencePolicy.VERIFY_BELOW_CONFIG));
        unknownKeys(sorted, agents.keySet());
        return new RetryPolicy(new Classifier(global, agents), backoff, tiers, maxDelay, interval, (int) maxPerCheck,
                dailyLimit, confidence);
    }

    /**
     * {@code analytics.flush.interval.ms} (default 1000), {@code analytics.grace.ms} (default 60000) and
     * {@code analytics.metrics.max.label.sets} (default 1000).
     */
    public static AnalyticsSettings analytics(Map<String, String> settings) {
        AnalyticsSettings defaults = AnalyticsSettings.defaults();
        long flush = number(settings, "analytics.flush.interval.ms", defaults.flushInterval().toMillis());
        if (flush < 1) {
            throw new ConfigLoader.ConfigError("analytics.flush.interval.ms must be at least 1");
        }
        long labelSets = number(settings, "analytics.metrics.max.label.sets", defaults.maxLabelSets());
        if (labelSets < 1 || labelSets > 100_000) {
            throw new ConfigLoader.ConfigError("analytics.metrics.max.label.sets must be between 1 and 100000");
        }
        String enabled = settings.getOrDefault("analytics.enabled", "true").trim();
        if (!enabled.equalsIgnoreCase("true") && !enabled.equalsIgnoreCase("false")) {
            throw new ConfigLoader.ConfigError("analytics.enabled must be true or false, was '" + enabled + "'");
        }
        return new AnalyticsSettings(Duration.ofMillis(flush),
                Duration.ofMillis(number(settings, "analytics.grace.ms", defaults.grace().toMillis())), (int) labelSets,
                Boolean.parseBoolean(enabled));
    }

    /** {@code replay.max.payload.bytes} (16384), {@code replay.max.reason.chars} (1000), {@code replay.max.state.bytes} (900000). */
    public static ReplayLimits replay(Map<String, String> settings) {
        ReplayLimits defaults = ReplayLimits.defaults();
        try {
            return new ReplayLimits(
                    (int) Math.min(Integer.MAX_VALUE, number(settings, "replay.max.payload.bytes", defaults.maxPayloadBytes())),
                    (int) Math.min(Integer.MAX_VALUE, number(settings, "replay.max.reason.chars", defaults.maxReasonChars())),
                    (int) Math.min(Integer.MAX_VALUE, number(settings, "replay.max.state.bytes", defaults.maxStateBytes())));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError(e.getMessage());
        }
    }

    /** {@code input.max.record.bytes} (524288). */
    public static InputLimits input(Map<String, String> settings) {
        try {
            return new InputLimits((int) Math.min(Integer.MAX_VALUE, number(settings, InputLimits.MAX_RECORD_BYTES_CONFIG,
                    InputLimits.defaults().maxRecordBytes())));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError(e.getMessage());
        }
    }

    private static ErrorPolicy policy(Map<String, String> settings, String prefix, ErrorPolicy start) {
        ErrorPolicy policy = start;
        String preset = settings.get(prefix + "preset");
        if (preset != null) {
            policy = ErrorPolicy.preset(preset).orElseThrow(() -> new ConfigLoader.ConfigError(prefix + "preset is '" + preset
                    + "': expected default, stop-on-any-error, retry-tool-errors, ignore-tool-errors or retry-all"));
        }
        if (settings.containsKey(prefix + "max.retries")) {
            policy = policy.withMaxRetries((int) number(settings, prefix + "max.retries", 0));
        }
        for (Map.Entry<String, String> entry : settings.entrySet()) {
            String rest = entry.getKey().startsWith(prefix) ? entry.getKey().substring(prefix.length()) : null;
            if (rest == null || rest.startsWith("agent.") && prefix.equals("policy.")) {
                continue;
            }
            if (rest.startsWith("category.")) {
                policy = policy.withCategory(category(entry.getKey(), rest.substring("category.".length())),
                        handling(entry.getKey(), entry.getValue()));
            } else if (rest.startsWith("code.")) {
                policy = policy.withCode(code(entry.getKey(), rest.substring("code.".length())),
                        handling(entry.getKey(), entry.getValue()));
            }
        }
        return policy;
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
                            rest.endsWith(".max.retries") ? rest.length() - ".max.retries".length() : -1));
            if (end <= 0) {
                throw new ConfigLoader.ConfigError(key + " is not a policy setting: expected policy.agent.<agent id>."
                        + "preset, .max.retries, .category.<category> or .code.<code>");
            }
            String agent = rest.substring(0, end);
            if (!agents.contains(agent)) {
                agents.add(agent);
            }
        }
        return agents;
    }

    private static Backoff backoff(Map<String, String> settings) {
        Backoff backoff = Backoff.seed000();
        for (Map.Entry<String, String> entry : settings.entrySet()) {
            String key = entry.getKey();
            if (key.startsWith("backoff.base.") && key.endsWith(".ms")) {
                String code = key.substring("backoff.base.".length(), key.length() - ".ms".length());
                backoff = backoff.withBase(code(key, code), Duration.ofMillis(number(settings, key, 0)));
            }
        }
        try {
            return new Backoff(backoff.bases(),
                    Duration.ofMillis(number(settings, "backoff.default.base.ms", backoff.defaultBase().toMillis())),
                    Duration.ofMillis(number(settings, "backoff.cap.ms", backoff.cap().toMillis())),
                    decimal(settings, "backoff.multiplier", backoff.multiplier()),
                    decimal(settings, "backoff.jitter", backoff.jitter()));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError("backoff settings: " + e.getMessage());
        }
    }

    private static void unknownKeys(Map<String, String> settings, java.util.Set<String> agents) {
        for (String key : settings.keySet()) {
            if (!owns(key)) {
                continue;
            }
            boolean known = key.equals("policy.preset") || key.equals("policy.max.retries")
                    || key.equals("policy.daily-limit")
                    || key.equals(ConfidencePolicy.RETRY_BELOW_CONFIG) || key.equals(ConfidencePolicy.VERIFY_BELOW_CONFIG)
                    || key.startsWith("policy.category.") || key.startsWith("policy.code.") || key.startsWith("policy.agent.")
                    || key.startsWith("backoff.base.") && key.endsWith(".ms") || key.equals("backoff.default.base.ms")
                    || key.equals("backoff.cap.ms") || key.equals("backoff.multiplier") || key.equals("backoff.jitter")
                    || key.equals("retry.tiers") || key.equals("retry.scheduler.interval.ms")
                    || key.equals("retry.scheduler.max.per.check") || key.equals("retry.max.delay.ms")
                    || key.equals("analytics.flush.interval.ms") || key.equals("analytics.grace.ms")
                    || key.equals("analytics.metrics.max.label.sets") || key.equals("analytics.enabled")
                    || key.equals("replay.max.payload.bytes") || key.equals("replay.max.reason.chars")
                    || key.equals("replay.max.state.bytes") || key.equals(InputLimits.MAX_RECORD_BYTES_CONFIG);
            if (!known) {
                throw new ConfigLoader.ConfigError("Unknown setting " + key + " (see docs/classification.md)");
            }
        }
    }

    /** A confidence threshold (0..1), or null when not set: the confidence rules are opt-in. */
    private static Double threshold(Map<String, String> settings, String key) {
        if (!settings.containsKey(key)) {
            return null;
        }
        double threshold = decimal(settings, key, 0);
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new ConfigLoader.ConfigError(key + " must be between 0 and 1, was " + threshold);
        }
        return threshold;
    }

    private static DailyLimit dailyLimit(String value) {
        try {
            return DailyLimit.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigLoader.ConfigError("policy.daily-limit is '" + value + "': expected switch or wait");
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

    private static double decimal(Map<String, String> settings, String key, double fallback) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigLoader.ConfigError(key + " must be a number, was '" + value + "'");
        }
    }

    private static List<Duration> durations(String key, String value) {
        List<Duration> durations = new ArrayList<>();
        for (String part : value.split(",")) {
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
