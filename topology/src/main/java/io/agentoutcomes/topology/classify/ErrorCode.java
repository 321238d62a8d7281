package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCategory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The canonical error codes: seed 000's constants, plus {@code auth-failed} for authentication and permission errors
 * (seed 003 {@code auth_error}, HTTP 401/403) and {@code unknown} for anything no table names. Each code carries its
 * seed 002 category, whether seed 000 lists it as retryable, and seed 000's backoff base.
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

    /** Whether seed 000's retryable sets list a code, and on which side. */
    public enum Retryability { RETRYABLE, NON_RETRYABLE, NOT_LISTED }

    private static final Map<String, ErrorCode> BY_VALUE = Arrays.stream(values())
            .collect(Collectors.toMap(ErrorCode::value, Function.identity()));

    private final String value;
    private final ErrorCategory category;
    private final Retryability seed000;
    private final Duration backoffBase;

    ErrorCode(String value, ErrorCategory category, Retryability seed000, long backoffBaseMs) {
        this.value = value;
        this.category = category;
        this.seed000 = seed000;
        this.backoffBase = Duration.ofMillis(backoffBaseMs);
    }

    /** The code as it is written on the wire, e.g. {@code llm-rate-limit}. */
    public String value() {
        return value;
    }

    /** Seed 002's category of the code. */
    public ErrorCategory category() {
        return category;
    }

    /** Seed 000's retryability of the code. */
    public Retryability seed000Retryability() {
        return seed000;
    }

    /** Seed 000's backoff base: rate limit 5 s, timeout 1 s, unavailable 10 s, event timeout 2 s, event unavailable 5 s, otherwise 2 s. */
    public Duration backoffBase() {
        return backoffBase;
    }

    /** The code with this wire value, if any. */
    public static Optional<ErrorCode> fromValue(String value) {
        return Optional.ofNullable(BY_VALUE.get(value));
    }
}
