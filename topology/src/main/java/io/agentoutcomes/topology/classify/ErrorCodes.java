package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCode;
import java.util.Locale;
import java.util.Map;

/**
 * The one table from what agents report to canonical {@link ErrorCode}s: seed 000 constants stand for themselves,
 * seed 003's codes and HTTP statuses map onto them. A code the table does not know falls back to the HTTP status;
 * with neither, the code is {@link ErrorCode#UNKNOWN}. docs/classification.md shows the same table.
 */
public final class ErrorCodes {
    /** Seed 003's {@code error.code} values. */
    static final Map<String, ErrorCode> REPORTED_CODES = Map.of(
            "rate_limit", ErrorCode.LLM_RATE_LIMIT,
            "timeout", ErrorCode.LLM_TIMEOUT,
            "server_error", ErrorCode.LLM_UNAVAILABLE,
            "invalid_request", ErrorCode.INVALID_INPUT,
            "auth_error", ErrorCode.AUTH_FAILED,
            "content_filter", ErrorCode.LLM_REFUSAL,
            "context_length", ErrorCode.LLM_TOKEN_LIMIT,
            "model_unavailable", ErrorCode.LLM_UNAVAILABLE);

    private ErrorCodes() {
    }

    /**
     * The canonical code for what an agent reported.
     *
     * @param reportedCode the error code as reported (seed 000 constant or seed 003 code), or null
     * @param statusCode   the HTTP status of the failed call, or null
     */
    public static ErrorCode canonical(String reportedCode, Integer statusCode) {
        if (reportedCode != null) {
            String code = reportedCode.trim().toLowerCase(Locale.ROOT);
            ErrorCode known = ErrorCode.fromValue(code).orElse(REPORTED_CODES.get(code));
            if (known != null && known != ErrorCode.UNKNOWN) {
                return known;
            }
        }
        return statusCode == null ? ErrorCode.UNKNOWN : fromHttpStatus(statusCode);
    }

    /** 429 rate limit; 408, 504 timeout; other 5xx unavailable; 400, 422 invalid input; 401, 403 auth; 413 token limit. */
    static ErrorCode fromHttpStatus(int status) {
        return switch (status) {
            case 429 -> ErrorCode.LLM_RATE_LIMIT;
            case 408, 504 -> ErrorCode.LLM_TIMEOUT;
            case 400, 422 -> ErrorCode.INVALID_INPUT;
            case 401, 403 -> ErrorCode.AUTH_FAILED;
            case 413 -> ErrorCode.LLM_TOKEN_LIMIT;
            default -> status >= 500 && status <= 599 ? ErrorCode.LLM_UNAVAILABLE : ErrorCode.UNKNOWN;
        };
    }
}
