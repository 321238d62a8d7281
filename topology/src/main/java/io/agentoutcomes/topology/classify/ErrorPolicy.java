package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.StopReason;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Seed 002's {@code ErrorPolicy}: what to do with an error of each category (and, here, of each code), and how many
 * consecutive failures a retry may reach before it becomes a stop. An immutable value; the {@code with...} methods
 * return changed copies.
 *
 * @param name       the preset the policy started from, for explanations
 * @param categories decisions per seed 002 category
 * @param codes      decisions per canonical code; a code rule wins over its category's
 * @param maxRetries a retry becomes a stop once consecutive failures reach this
 */
public record ErrorPolicy(String name, Map<ErrorCategory, ErrorHandling> categories, Map<ErrorCode, ErrorHandling> codes,
                          int maxRetries) {

    public ErrorPolicy {
        categories = Map.copyOf(categories);
        codes = Map.copyOf(codes);
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
        }
    }

    /** Seed 002 {@code stopOnAnyError()}: stop on every category, no retries. */
    public static ErrorPolicy stopOnAnyError() {
        return byCategory("stop-on-any-error", 0, ErrorHandling.STOP, ErrorHandling.STOP, ErrorHandling.STOP,
                ErrorHandling.STOP, ErrorHandling.STOP, ErrorHandling.STOP);
    }

    /** Seed 002 {@code retryToolErrors(3)}: retry tool, validation, rate-limit and timeout errors; stop on model and unknown. */
    public static ErrorPolicy retryToolErrors(int maxRetries) {
        return byCategory("retry-tool-errors", maxRetries, ErrorHandling.RETRY, ErrorHandling.STOP, ErrorHandling.RETRY,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.STOP);
    }

    /** Seed 002 {@code ignoreToolErrors()}: ignore tool, validation and unknown errors; retry rate limits and timeouts (max 0); stop on model. */
    public static ErrorPolicy ignoreToolErrors() {
        return byCategory("ignore-tool-errors", 0, ErrorHandling.IGNORE, ErrorHandling.STOP, ErrorHandling.IGNORE,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.IGNORE);
    }

    /** Seed 002 {@code retryAll(5)}: retry every category. */
    public static ErrorPolicy retryAll(int maxRetries) {
        return byCategory("retry-all", maxRetries, ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.RETRY,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.RETRY);
    }

    /**
     * The default: seed 000's retryable sets, code by code (retry timeouts, rate limits, unavailability; stop on the
     * rest it lists), 5 attempts. Codes it does not list have no rule: the agent's retryable hint, else permanent.
     */
    public static ErrorPolicy seed000Default() {
        Map<ErrorCode, ErrorHandling> codes = new EnumMap<>(ErrorCode.class);
        for (ErrorCode code : ErrorCode.values()) {
            switch (code.seed000Retryability()) {
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
            case "default" -> Optional.of(seed000Default());
            case "stop-on-any-error" -> Optional.of(stopOnAnyError());
            case "retry-tool-errors" -> Optional.of(retryToolErrors(3));
            case "ignore-tool-errors" -> Optional.of(ignoreToolErrors());
            case "retry-all" -> Optional.of(retryAll(5));
            default -> Optional.empty();
        };
    }

    public ErrorPolicy withCategory(ErrorCategory category, ErrorHandling handling) {
        Map<ErrorCategory, ErrorHandling> changed = new EnumMap<>(ErrorCategory.class);
        changed.putAll(categories);
        changed.put(category, handling);
        return new ErrorPolicy(name, changed, codes, maxRetries);
    }

    public ErrorPolicy withCode(ErrorCode code, ErrorHandling handling) {
        Map<ErrorCode, ErrorHandling> changed = new EnumMap<>(ErrorCode.class);
        changed.putAll(codes);
        changed.put(code, handling);
        return new ErrorPolicy(name, categories, changed, maxRetries);
    }

    public ErrorPolicy withMaxRetries(int retries) {
        return new ErrorPolicy(name, categories, codes, retries);
    }

    /** The handling a rule gives a failure before the retry limit, and which rule it was. */
    public record Rule(ErrorHandling handling, String description) {
    }

    /**
     * Seed 002's {@code evaluate}, with the rule that decided and the reason in the style of its {@code buildReason}.
     * A retry becomes a stop ({@code retry_limit}) once consecutive failures reach maxRetries.
     */
    public PolicyDecision evaluate(FailureContext failure) {
        return decide(failure, rule(failure));
    }

    /**
     * The rule for a failure. Precedence: a rule for the code, a rule for the category, the agent's retryable hint,
     * else stop (permanent, seed 001's default).
     */
    public Rule rule(FailureContext failure) {
        if (codes.containsKey(failure.code())) {
            return new Rule(codes.get(failure.code()), name + " policy, code " + failure.code().value());
        }
        if (categories.containsKey(failure.category())) {
            return new Rule(categories.get(failure.category()), name + " policy, category " + label(failure.category()));
        }
        if (failure.retryableHint() != null) {
            return new Rule(failure.retryableHint() ? ErrorHandling.RETRY : ErrorHandling.STOP,
                    "agent's retryable hint (" + failure.retryableHint() + ")");
        }
        return new Rule(ErrorHandling.STOP, "default: permanent");
    }

    /** Applies the retry limit to a rule's handling (this policy's, or an explicit result type) and explains it. */
    public PolicyDecision decide(FailureContext failure, Rule rule) {
        ErrorHandling handling = rule.handling();
        StopReason stopReason = null;
        if (handling == ErrorHandling.RETRY && failure.consecutiveFailures() >= maxRetries) {
            handling = ErrorHandling.STOP;
            stopReason = StopReason.RETRY_LIMIT;
        } else if (handling == ErrorHandling.STOP) {
            stopReason = StopReason.ERROR;
        }
        String typeLabel = capitalized(label(failure.category()));
        String reason = switch (handling) {
            case STOP -> stopReasonText(failure.category(), failure.consecutiveFailures(), maxRetries);
            case RETRY -> String.format(Locale.ROOT, "%s error, retrying (%d/%d)", typeLabel,
                    failure.consecutiveFailures(), maxRetries);
            case IGNORE -> typeLabel + " error ignored by policy";
        };
        return new PolicyDecision(handling, rule.description(), reason, failure.consecutiveFailures(), failure.totalFailures(),
                maxRetries, stopReason);
    }

    /** Seed 002's {@code buildReason} text of a stop. */
    static String stopReasonText(ErrorCategory category, int consecutiveFailures, int maxRetries) {
        return String.format(Locale.ROOT, "%s error after %d consecutive failures (max: %d)",
                capitalized(label(category)), consecutiveFailures, maxRetries);
    }

    /** Seed 002's ErrorType value: tool, model, validation, rate_limit, timeout, unknown. */
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
