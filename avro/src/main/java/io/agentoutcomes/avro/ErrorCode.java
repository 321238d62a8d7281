package io.agentoutcomes.avro;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The contract's canonical error codes, declared once: each code's wire value, category, whether it is retryable by
 * default, and its backoff base. Everything that knows a code reads it here (classification, the backoff, the policy
 * settings, explain, the fleet, the client and the bench), so a new code with its own base is one line of this file.
 * {@code auth-failed} covers authentication and permission errors (HTTP 401/403); {@code unknown} is anything no
 * table names.
 */
public enum ErrorCode {
    LLM_REFUSAL("llm-refusal", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000),
    LLM_INVALID_OUTPUT("llm-invalid-output", ErrorCategory.VALIDATION, Retryability.NON_RETRYABLE, 2_000),
    LLM_TIMEOUT("llm-timeout", ErrorCategory.TIMEOUT, Retryability.RETRYABLE, 1_000),
    LLM_RATE_LIMIT("llm-rate-limit", ErrorCategory.RATE_LIMIT, Retryability.RETRYABLE, 5_000),
    LLM_TOKEN_LIMIT("llm-token-limit", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000),
    LLM_UNAVAILABLE("llm-unavailable", ErrorCategory.MODEL, Retryability.RETRYABLE, 10_000),
    EVENT_TIMEOUT("event-timeout", ErrorCategory.TIMEOUT, Retryability.RETRYABLE, 2_000),
    EVENT_UNAVAILABLE("event-unavailable", ErrorCategory.TOOL, Retryability.RETRYABLE, 5_000),
    EVENT_REJECTED("event-rejected", ErrorCategory.TOOL, Retryability.NON_RETRYABLE, 2_000),
    EVENT_INVALID_RESPONSE("event-invalid-response", ErrorCategory.TOOL, Retryability.NON_RETRYABLE, 2_000),
    INVALID_INPUT("invalid-input", ErrorCategory.VALIDATION, Retryability.NON_RETRYABLE, 2_000),
    AUTH_FAILED("auth-failed", ErrorCategory.MODEL, Retryability.NON_RETRYABLE, 2_000),
    UNKNOWN("unknown", ErrorCategory.UNKNOWN, Retryability.NOT_LISTED, 2_000);

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

    ErrorCode(String value, ErrorCategory category, Retryability retryability, long backoffBaseMs) {
        this.value = value;
        this.category = category;
        this.retryability = retryability;
        this.backoffBase = Duration.ofMillis(backoffBaseMs);
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

    /** The code with this wire value, if any. */
    public static Optional<ErrorCode> fromValue(String value) {
        return Optional.ofNullable(BY_VALUE.get(value));
    }
}
