package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.StopReason;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An error policy: what to do with an error of each category (and, here, of each code), and how many
 * consecutive failures a retry may reach before it becomes a stop. An immutable value; the {@code with...} methods
 * return changed copies.
 *
 * @param name       the preset the policy started from, for explanations
 * @param categories decisions per error category
 * @param codes      decisions per canonical code; a code rule wins over its category's
 * @param maxRetries the retry limit, which counts failures, not retries: a retry becomes a stop once the
 *                   task's consecutive failures reach it, so 5 means at most 5 attempts, the first and 4 retries
 *                   (Temporal's and Spring Retry's {@code maxAttempts} of 5); 0 and 1 both mean no retry
 * @param settings   the settings that made each part of the policy, named by the decisions they make
 */
public record ErrorPolicy(String name, Map<ErrorCategory, ErrorHandling> categories, Map<ErrorCode, ErrorHandling> codes,
                          int maxRetries, Settings settings) {

    /**
     * Which setting made each part of a policy, as {@code key=value} (e.g. {@code policy.code.llm-rate-limit=stop}),
     * so a decision names the setting that decided; absent where the preset's own value decides.
     *
     * @param preset     the setting that chose the preset ({@code policy.preset=retry-tool-errors})
     * @param maxRetries the setting that set the retry limit ({@code policy.max.retries=3})
     * @param categories the setting of each category rule
     * @param codes      the setting of each code rule
     */
    public record Settings(String preset, String maxRetries, Map<ErrorCategory, String> categories,
                           Map<ErrorCode, String> codes) {
        public Settings {
            categories = Map.copyOf(categories);
            codes = Map.copyOf(codes);
        }

        /** A policy made in code: every part is its preset's. */
        public static Settings none() {
            return new Settings(null, null, Map.of(), Map.of());
        }
    }

    public ErrorPolicy {
        categories = Map.copyOf(categories);
        codes = Map.copyOf(codes);
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
        }
        if (settings == null) {
            throw new IllegalArgumentException("a policy names its settings (Settings.none() for none)");
        }
    }

    /** A policy made in code, no part of it by a setting. */
    public ErrorPolicy(String name, Map<ErrorCategory, ErrorHandling> categories, Map<ErrorCode, ErrorHandling> codes,
                       int maxRetries) {
        this(name, categories, codes, maxRetries, Settings.none());
    }

    /** Stop on every category, no retries. */
    public static ErrorPolicy stopOnAnyError() {
        return byCategory("stop-on-any-error", 0, ErrorHandling.STOP, ErrorHandling.STOP, ErrorHandling.STOP,
                ErrorHandling.STOP, ErrorHandling.STOP, ErrorHandling.STOP);
    }

    /** Retry tool, validation, rate-limit and timeout errors; stop on model and unknown. */
    public static ErrorPolicy retryToolErrors(int maxRetries) {
        return byCategory("retry-tool-errors", maxRetries, ErrorHandling.RETRY, ErrorHandling.STOP, ErrorHandling.RETRY,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.STOP);
    }

    /** Ignore tool, validation and unknown errors; retry rate limits and timeouts (max 0); stop on model. */
    public static ErrorPolicy ignoreToolErrors() {
        return byCategory("ignore-tool-errors", 0, ErrorHandling.IGNORE, ErrorHandling.STOP, ErrorHandling.IGNORE,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.IGNORE);
    }

    /** Retry every category. */
    public static ErrorPolicy retryAll(int maxRetries) {
        return byCategory("retry-all", maxRetries, ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.RETRY,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.RETRY);
    }

    /**
     * The default: each code's default retryability (retry timeouts, rate limits, unavailability; stop on the other
     * listed codes), 5 attempts. A code listed on neither side has no rule: the agent's retryable hint, else permanent.
     */
    public static ErrorPolicy defaults() {
        Map<ErrorCode, ErrorHandling> codes = new EnumMap<>(ErrorCode.class);
        for (ErrorCode code : ErrorCode.values()) {
            switch (code.retryability()) {
                case RETRYABLE -> codes.put(code, ErrorHandling.RETRY);
                case NON_RETRYABLE -> codes.put(code, ErrorHandling.STOP);
                case NOT_LISTED -> { }
            }
        }
        return new ErrorPolicy("default", Map.of(), codes, 5);
    }

    /** A preset by its name: default, stop-on-any-error, retry-tool-errors, ignore-tool-errors, retry-all. */
    public static Optional<ErrorPolicy> preset(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "default" -> Optional.of(defaults());
            case "stop-on-any-error" -> Optional.of(stopOnAnyError());
            case "retry-tool-errors" -> Optional.of(retryToolErrors(3));
            case "ignore-tool-errors" -> Optional.of(ignoreToolErrors());
            case "retry-all" -> Optional.of(retryAll(5));
            default -> Optional.empty();
        };
    }

    public ErrorPolicy withCategory(ErrorCategory category, ErrorHandling handling) {
        return withCategory(category, handling, null);
    }

    /** With a category rule made by {@code setting} ({@code policy.category.model=retry}), which its decisions name. */
    public ErrorPolicy withCategory(ErrorCategory category, ErrorHandling handling, String setting) {
        Map<ErrorCategory, ErrorHandling> changed = new EnumMap<>(ErrorCategory.class);
        changed.putAll(categories);
        changed.put(category, handling);
        Map<ErrorCategory, String> named = new EnumMap<>(ErrorCategory.class);
        named.putAll(settings.categories());
        named.remove(category);
        if (setting != null) {
            named.put(category, setting);
        }
        return new ErrorPolicy(name, changed, codes, maxRetries,
                new Settings(settings.preset(), settings.maxRetries(), named, settings.codes()));
    }

    public ErrorPolicy withCode(ErrorCode code, ErrorHandling handling) {
        return withCode(code, handling, null);
    }

    /** With a code rule made by {@code setting} ({@code policy.code.llm-rate-limit=stop}), which its decisions name. */
    public ErrorPolicy withCode(ErrorCode code, ErrorHandling handling, String setting) {
        Map<ErrorCode, ErrorHandling> changed = new EnumMap<>(ErrorCode.class);
        changed.putAll(codes);
        changed.put(code, handling);
        Map<ErrorCode, String> named = new EnumMap<>(ErrorCode.class);
        named.putAll(settings.codes());
        named.remove(code);
        if (setting != null) {
            named.put(code, setting);
        }
        return new ErrorPolicy(name, categories, changed, maxRetries,
                new Settings(settings.preset(), settings.maxRetries(), settings.categories(), named));
    }

    public ErrorPolicy withMaxRetries(int retries) {
        return withMaxRetries(retries, null);
    }

    /** With a retry limit set by {@code setting} ({@code policy.max.retries=3}), which a retry-limit stop names. */
    public ErrorPolicy withMaxRetries(int retries, String setting) {
        return new ErrorPolicy(name, categories, codes, retries,
                new Settings(settings.preset(), setting, settings.categories(), settings.codes()));
    }

    /** The same preset's rules, chosen by {@code setting} ({@code policy.preset=retry-tool-errors}). */
    public ErrorPolicy chosenBy(String setting) {
        return new ErrorPolicy(name, categories, codes, maxRetries,
                new Settings(setting, settings.maxRetries(), settings.categories(), settings.codes()));
    }

    /** The handling a rule gives a failure before the retry limit, and which rule it was. */
    public record Rule(ErrorHandling handling, String description) {
    }

    /**
     * The decision for a failure, with the rule that decided and the reason text.
     * A retry becomes a stop ({@code retry_limit}) once consecutive failures reach maxRetries.
     */
    public PolicyDecision evaluate(FailureContext failure) {
        return decide(failure, rule(failure));
    }

    /**
     * The rule for a failure. Precedence: a rule for the code, a rule for the category (a preset's retry yields to the
     * agent's {@code retryable: false}), the agent's retryable hint, else stop (permanent: a failure nobody says is retryable is not retried). A rule a setting made is described by that setting
     * ({@code policy.code.llm-rate-limit=stop}); a preset's, by the preset (and the setting that chose it).
     */
    public Rule rule(FailureContext failure) {
        if (codes.containsKey(failure.code())) {
            String setting = settings.codes().get(failure.code());
            return setting != null ? new Rule(codes.get(failure.code()), setting)
                    : heeded(failure, new Rule(codes.get(failure.code()), presetRule("code " + failure.code().value())));
        }
        if (categories.containsKey(failure.category())) {
            String setting = settings.categories().get(failure.category());
            return setting != null ? new Rule(categories.get(failure.category()), setting)
                    : heeded(failure, new Rule(categories.get(failure.category()),
                            presetRule("category " + label(failure.category()))));
        }
        if (failure.retryableHint() != null) {
            return new Rule(failure.retryableHint() ? ErrorHandling.RETRY : ErrorHandling.STOP,
                    "agent's retryable hint (" + failure.retryableHint() + ")");
        }
        return new Rule(ErrorHandling.STOP, "default: permanent");
    }

    /**
     * A preset's retry, unless the agent says a retry cannot succeed ({@code retryable: false}, seed 003's "elif not
     * retryable: fatal"): the agent saw the provider's answer (a used-up quota, a spend limit) that the code does not
     * carry. A rule a setting made is the operator's and is not second-guessed.
     */
    private static Rule heeded(FailureContext failure, Rule preset) {
        if (preset.handling() == ErrorHandling.RETRY && Boolean.FALSE.equals(failure.retryableHint())) {
            return new Rule(ErrorHandling.STOP, "agent's retryable hint (false), over " + preset.description());
        }
        return preset;
    }

    /**
     * Applies the retry limit to a rule's handling (this policy's, or an explicit result type) and explains it. A
     * retry-limit stop also names the setting of the limit, when one set it; a stop by the rule itself says so and
     * blames no limit.
     */
    public PolicyDecision decide(FailureContext failure, Rule rule) {
        ErrorHandling handling = rule.handling();
        StopReason stopReason = null;
        String description = rule.description();
        if (handling == ErrorHandling.RETRY && failure.consecutiveFailures() >= maxRetries) {
            handling = ErrorHandling.STOP;
            stopReason = StopReason.RETRY_LIMIT;
            if (settings.maxRetries() != null) {
                description = description + ", limit " + settings.maxRetries();
            }
        } else if (handling == ErrorHandling.STOP) {
            stopReason = StopReason.ERROR;
        }
        // the label is made where it is used: a stop's texts make their own
        String reason = switch (handling) {
            case STOP -> stopReason == StopReason.RETRY_LIMIT
                    ? retryLimitText(failure.category(), failure.consecutiveFailures(), maxRetries)
                    : notRetriedText(failure.category(), rule.description());
            case RETRY -> capitalized(label(failure.category())) + " error, retrying (" + failure.consecutiveFailures()
                    + "/" + maxRetries + ")";
            case IGNORE -> capitalized(label(failure.category())) + " error ignored by policy";
        };
        return new PolicyDecision(handling, description, reason, failure.consecutiveFailures(), failure.totalFailures(),
                maxRetries, stopReason);
    }

    /** The reason text of a stop by the retry limit: the limit was reached. */
    static String retryLimitText(ErrorCategory category, int consecutiveFailures, int maxRetries) {
        return capitalized(label(category)) + " error after " + consecutiveFailures + " consecutive failures (max: "
                + maxRetries + ")";
    }

    /**
     * The text of a stop by a rule (stop reason {@code error}): the retry-limit text would blame a limit that was not
     * reached, so it says the rule that stopped it instead, as a retry's text says it is retrying.
     */
    static String notRetriedText(ErrorCategory category, String rule) {
        return capitalized(label(category)) + " error, not retried: " + rule;
    }

    private String presetRule(String part) {
        return settings.preset() != null ? settings.preset() + ", " + part : name + " policy, " + part;
    }

    /** A category as the reason texts name it: tool, model, validation, rate_limit, timeout, unknown. */
    static String label(ErrorCategory category) {
        return category.name().toLowerCase(Locale.ROOT);
    }

    private static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }

    private static ErrorPolicy byCategory(String name, int maxRetries, ErrorHandling tool, ErrorHandling model,
                                          ErrorHandling validation, ErrorHandling rateLimit, ErrorHandling timeout,
                                          ErrorHandling unknown) {
        Map<ErrorCategory, ErrorHandling> categories = new EnumMap<>(ErrorCategory.class);
        categories.put(ErrorCategory.TOOL, tool);
        categories.put(ErrorCategory.MODEL, model);
        categories.put(ErrorCategory.VALIDATION, validation);
        categories.put(ErrorCategory.RATE_LIMIT, rateLimit);
        categories.put(ErrorCategory.TIMEOUT, timeout);
        categories.put(ErrorCategory.UNKNOWN, unknown);
        return new ErrorPolicy(name, categories, Map.of(), maxRetries);
    }
}
