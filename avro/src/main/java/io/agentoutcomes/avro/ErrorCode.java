package io.agentoutcomes.avro;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The contract's canonical error codes, declared once: each code's wire value, category, whether it is retryable by
 * default, its backoff base, and what else agents report for it (their own {@code error.code} values and HTTP
 * statuses). Everything that knows a code reads it here (classification, the backoff, the policy settings, explain,
 * the fleet, the bench and the documented table), so a new code with its own base is one entry of this file.
 * {@code auth-failed} covers authentication and permission errors; {@code unknown} is anything no entry names.
 */
public enum ErrorCode {
    LLM_REFUSAL("llm-refusal", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000,
            List.of("content_filter")),
    LLM_INVALID_OUTPUT("llm-invalid-output", ErrorCategory.VALIDATION, Retryability.NON_RETRYABLE, 2_000, List.of()),
    LLM_TIMEOUT("llm-timeout", ErrorCategory.TIMEOUT, Retryability.RETRYABLE, 1_000, List.of("timeout"), 408, 504),
    LLM_RATE_LIMIT("llm-rate-limit", ErrorCategory.RATE_LIMIT, Retryability.RETRYABLE, 5_000, List.of("rate_limit"), 429),
    LLM_TOKEN_LIMIT("llm-token-limit", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000,
            List.of("context_length"), 413),
    /**
     * The account's quota, credits or spend limit is used up (OpenAI {@code insufficient_quota}, Anthropic
     * {@code billing_error}, DeepSeek's and OpenRouter's 402, a Google quota of 0): waiting cannot help.
     */
    LLM_QUOTA_EXHAUSTED("llm-quota-exhausted", ErrorCategory.RATE_LIMIT, Retryability.NON_RETRYABLE, 2_000,
            List.of("insufficient_quota", "billing_error", "insufficient_balance", "payment_required"), 402),
    /** Also every 5xx status that no other code names. */
    LLM_UNAVAILABLE("llm-unavailable", ErrorCategory.MODEL, Retryability.RETRYABLE, 10_000,
            List.of("server_error", "model_unavailable")),
    EVENT_TIMEOUT("event-timeout", ErrorCategory.TIMEOUT, Retryability.RETRYABLE, 2_000, List.of()),
    EVENT_UNAVAILABLE("event-unavailable", ErrorCategory.TOOL, Retryability.RETRYABLE, 5_000, List.of()),
    EVENT_REJECTED("event-rejected", ErrorCategory.TOOL, Retryability.NON_RETRYABLE, 2_000, List.of()),
    EVENT_INVALID_RESPONSE("event-invalid-response", ErrorCategory.TOOL, Retryability.NON_RETRYABLE, 2_000, List.of()),
    INVALID_INPUT("invalid-input", ErrorCategory.VALIDATION, Retryability.NON_RETRYABLE, 2_000,
            List.of("invalid_request"), 400, 422),
    AUTH_FAILED("auth-failed", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000, List.of("auth_error"), 401, 403),
    UNKNOWN("unknown", ErrorCategory.UNKNOWN, Retryability.NOT_LISTED, 2_000, List.of());

    /** Whether the default retryable sets list a code, and on which side. */
    public enum Retryability { RETRYABLE, NON_RETRYABLE, NOT_LISTED }

    /** The base of a code that names no other: 2 s. */
    public static final Duration DEFAULT_BACKOFF_BASE = Duration.ofMillis(2_000);

    private static final Map<String, ErrorCode> BY_VALUE = Arrays.stream(values())
            .collect(Collectors.toMap(ErrorCode::value, Function.identity()));

    private final String value;
    private final ErrorCategory category;
    private final Retryability retryability;
    private final Duration backoffBase;
    private final List<String> reportedAs;
    private final List<Integer> httpStatuses;

    ErrorCode(String value, ErrorCategory category, Retryability retryability, long backoffBaseMs,
              List<String> reportedAs, Integer... httpStatuses) {
        this.value = value;
        this.category = category;
        this.retryability = retryability;
        this.backoffBase = Duration.ofMillis(backoffBaseMs);
        this.reportedAs = reportedAs;
        this.httpStatuses = List.of(httpStatuses);
    }

    /** The code as it is written on the wire, e.g. {@code llm-rate-limit}. */
    public String value() {
        return value;
    }

    /** The category of the code. */
    public ErrorCategory category() {
        return category;
    }

    /** Whether the code is retryable by default. */
    public Retryability retryability() {
        return retryability;
    }

    /** The code's backoff base: rate limit 5 s, timeout 1 s, unavailable 10 s, event timeout 2 s, event unavailable 5 s, otherwise 2 s. */
    public Duration backoffBase() {
        return backoffBase;
    }

    /** The other {@code error.code} values agents report for this code (lower case), e.g. {@code rate_limit}. */
    public List<String> reportedAs() {
        return reportedAs;
    }

    /** The HTTP statuses of a failed call that mean this code when the reported code names none. */
    public List<Integer> httpStatuses() {
        return httpStatuses;
    }

    /** The code with this wire value, if any. */
    public static Optional<ErrorCode> fromValue(String value) {
        return Optional.ofNullable(BY_VALUE.get(value));
    }
}
