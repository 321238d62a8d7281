package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.classify.Backoff;
import io.agentoutcomes.topology.classify.Classifier;
import io.agentoutcomes.topology.classify.ConfidencePolicy;
import io.agentoutcomes.topology.classify.DailyLimit;
import io.agentoutcomes.topology.classify.ErrorPolicy;
import io.agentoutcomes.topology.classify.Jitter;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetryTiers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The classification, backoff and retry settings as the topology's {@link RetryPolicy}, a stage's settings
 * group. The ones named per code, category or agent ({@link #families()}) are parsed where their
 * parts are understood ({@link ErrorPolicyRules}; the fallback chains, {@link FallbackConfig}):
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
public final class RetryPolicyConfig implements StageConfig<RetryPolicy> {
    public static final String POLICY_PRESET = "policy.preset";
    public static final String POLICY_MAX_RETRIES = "policy.max.retries";
    public static final String POLICY_MAX_ATTEMPTS = "policy.max.attempts";
    public static final String POLICY_DAILY_LIMIT = "policy.daily-limit";
    public static final String BACKOFF_DEFAULT_BASE_MS = "backoff.default.base.ms";
    public static final String BACKOFF_CAP_MS = "backoff.cap.ms";
    public static final String BACKOFF_MULTIPLIER = "backoff.multiplier";
    public static final String BACKOFF_JITTER = "backoff.jitter";
    public static final String RETRY_TIERS = "retry.tiers";
    public static final String RETRY_MAX_DELAY_MS = "retry.max.delay.ms";

    public static final String PRESETS = "default, stop-on-any-error, retry-tool-errors, ignore-tool-errors, retry-all";
    /** How a failure may be handled ({@link ErrorHandling}'s words). */
    private static final String HANDLING = String.join(", ", EnumWords.words(ErrorHandling.class));
    /** The categories of {@code policy.category.<category>}, as {@link ErrorCategory} names them ({@code rate_limit}). */
    private static final String CATEGORIES = Arrays.stream(ErrorCategory.values())
            .map(category -> category.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
    private static final Backoff BACKOFF_DEFAULTS = Backoff.defaults();

    /** The settings named per category, code, agent or chain. */
    private static final List<SettingFamily> FAMILIES = Stream.concat(Stream.of(
            new SettingFamily("policy.category.<category>", "policy.category.rate_limit", Headings.POLICY, Type.STRING, HANDLING + " (categories: " + CATEGORIES + ")",
                    "the preset's", "How failures of a category are handled.", name -> name.startsWith("policy.category.")),
            new SettingFamily("policy.code.<code>", "policy.code.llm-rate-limit", Headings.POLICY, Type.STRING, HANDLING + " (any canonical error code, e.g. llm-rate-limit)",
                    "the preset's", "How failures with an error code are handled; before the category.", name -> name.startsWith("policy.code.")),
            new SettingFamily("policy.agent.<agent id>.preset, .max.retries, .max.attempts, .category.<category>, .code.<code>",
                    "policy.agent.billing-bot.preset", Headings.POLICY, Type.STRING,
                    "as the global settings", "the global policy", "One agent's own policy, starting from the global one.",
                    name -> name.startsWith("policy.agent.")),
            new SettingFamily("backoff.base.<code>.ms", "backoff.base.llm-timeout.ms", Headings.BACKOFF, Type.LONG, "at least 0", "the code's own base",
                    "Base delay of one error code.", name -> name.startsWith("backoff.base.") && name.endsWith(".ms"))),
            FallbackConfig.FAMILIES.stream()).toList();

    @Override
    public Declarations declare(Declarations declarations) {
        return declarations.group(Headings.POLICY)
                .define(POLICY_PRESET, Type.STRING, "default", Check.oneOf(List.of(PRESETS.split(", "))), "The error policy to start from (docs/classification.md).")
                .define(POLICY_MAX_RETRIES, Type.INT, null, Check.notNegative(), "The retry limit, which counts failures, not retries: a retry becomes a stop once a task's consecutive failures reach it, so 5 means at most 5 attempts, 4 of them retries (0 and 1: no retry). Not set: the preset's (5 for default).")
                .define(POLICY_MAX_ATTEMPTS, Type.INT, null, Check.atLeast(1), "The same limit named in attempts, as Temporal (maximumAttempts) and Spring Retry (maxAttempts) name it: attempts of one task at most, the first included, so 5 is policy.max.retries=5 (4 retries) and 1 is no retry. Set one of the two.")
                .define(POLICY_DAILY_LIMIT, Type.STRING, EnumWords.word(DailyLimit.SWITCH), Check.oneOf(DailyLimit.class), "An exhausted daily rate-limit window: switch hands the retry on at once with action SWITCH_PROVIDER; wait waits for the reset (within retry.max.delay.ms).")
                .define(ConfidencePolicy.RETRY_BELOW_CONFIG, Type.DOUBLE, null, Check.between(0.0, 1.0), "A success whose confidence is below it is retried. Not set: off.")
                .define(ConfidencePolicy.VERIFY_BELOW_CONFIG, Type.DOUBLE, null, Check.between(0.0, 1.0), "A success whose confidence is below it goes to verifications. Not set: off.")
                .group(Headings.BACKOFF)
                .define(BACKOFF_DEFAULT_BASE_MS, Type.LONG, BACKOFF_DEFAULTS.defaultBase().toMillis(), Check.notNegative(), "Base delay of a code without its own base.")
                .define(BACKOFF_CAP_MS, Type.LONG, BACKOFF_DEFAULTS.cap().toMillis(), Check.notNegative(), "The longest computed delay (a provider's retry-after may be longer).")
                .define(BACKOFF_MULTIPLIER, Type.DOUBLE, BACKOFF_DEFAULTS.multiplier(), new Check("at least 1", v -> (Double) v >= 1, (n, v) -> n + " must be at least 1, was " + v).saying("backoff settings: "), "delay = min(base * multiplier^attempt, cap).")
                .define(BACKOFF_JITTER, Type.STRING, BACKOFF_DEFAULTS.jitter().toString(), Check.parsedBy("none, full, equal or 0..1", v -> Jitter.parse(v.toString())).saying("backoff settings: "), "How the computed delay is spread so a fleet's retries do not come due in step: none (delays exact), full (uniformly 0 to the delay), equal (half the delay plus up to the other half), or a fraction (0.1: up to ±10 %). Applied before the provider's retry_after and window resets, so never earlier than they allow.")
                .group(Headings.RETRY)
                .define(RETRY_TIERS, Type.LIST, RetryTiers.DEFAULT_BOUNDS.stream().map(RetryTiers::name).toList(), Check.parsedBy("durations like 500ms, 5s, 2m, 1h", v -> durations(RETRY_TIERS, (List<?>) v)), "Delay tiers (topics retry-delay-<tier>, then retry-delay-long); no backoff setting changes them.")
                .define(RETRY_MAX_DELAY_MS, Type.LONG, RetryPolicy.DEFAULT_MAX_DELAY.toMillis(), Check.notNegative(), "The longest a retry may wait; a longer one is a stop, dead-lettered with rule delay-out-of-range.");
    }

    @Override
    public List<SettingFamily> families() {
        return FAMILIES;
    }

    @Override
    public RetryPolicy parse(ParsedConfig config) {
        Map<String, String> sorted = new TreeMap<>(config.families());
        String preset = config.getString(POLICY_PRESET);
        ErrorPolicy start = ErrorPolicy.preset(preset).orElseThrow();
        if (config.originals().containsKey(POLICY_PRESET)) {
            start = start.chosenBy(POLICY_PRESET + "=" + preset.trim());
        }
        start = ErrorPolicyRules.withLimit(start, POLICY_MAX_RETRIES, config.getInt(POLICY_MAX_RETRIES),
                POLICY_MAX_ATTEMPTS, config.getInt(POLICY_MAX_ATTEMPTS));
        ErrorPolicy global = ErrorPolicyRules.policy(sorted, "policy.", start);
        Map<String, ErrorPolicy> agents = new HashMap<>();
        for (String agent : ErrorPolicyRules.agentIds(sorted)) {
            agents.put(agent, ErrorPolicyRules.policy(sorted, "policy.agent." + agent + ".", global));
        }
        Backoff backoff = backoff(config, sorted);
        return new RetryPolicy(new Classifier(global, agents), backoff,
                RetryTiers.of(durations(RETRY_TIERS, config.getList(RETRY_TIERS))),
                Duration.ofMillis(config.getLong(RETRY_MAX_DELAY_MS)),
                EnumWords.of(DailyLimit.class, config.getString(POLICY_DAILY_LIMIT)),
                new ConfidencePolicy(config.getDouble(ConfidencePolicy.RETRY_BELOW_CONFIG),
                        config.getDouble(ConfidencePolicy.VERIFY_BELOW_CONFIG)), FallbackConfig.parse(config.families()));
    }

    @Override
    public PipelineSettings.Builder set(PipelineSettings.Builder pipeline, RetryPolicy value) {
        return pipeline.retry(value);
    }

    private static Backoff backoff(ParsedConfig config, Map<String, String> families) {
        Backoff backoff = Backoff.defaults();
        for (Map.Entry<String, String> entry : families.entrySet()) {
            String key = entry.getKey();
            if (key.startsWith("backoff.base.") && key.endsWith(".ms")) {
                String code = key.substring("backoff.base.".length(), key.length() - ".ms".length());
                backoff = backoff.withBase(ErrorPolicyRules.code(key, code), Duration.ofMillis(ErrorPolicyRules.number(families, key, 0)));
            }
        }
        try {
            return new Backoff(backoff.bases(), Duration.ofMillis(config.getLong(BACKOFF_DEFAULT_BASE_MS)),
                    Duration.ofMillis(config.getLong(BACKOFF_CAP_MS)),
                    config.getDouble(BACKOFF_MULTIPLIER),
                    Jitter.parse(config.getString(BACKOFF_JITTER)));
        } catch (IllegalArgumentException e) {
            throw new ConfigError("backoff settings: " + e.getMessage());
        }
    }

    /** Durations like 500ms, 5s, 2m or 1h; at least one. */
    static List<Duration> durations(String key, List<?> values) {
        if (values.isEmpty()) {
            throw new ConfigError(key + " needs at least one duration like 500ms, 5s, 2m or 1h");
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
                throw new ConfigError(key + ": '" + part.trim() + "' is not a duration like 500ms, 5s, 2m or 1h");
            }
        }
        return durations;
    }
}
