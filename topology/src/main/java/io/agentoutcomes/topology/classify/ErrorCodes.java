package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * From what agents report to a canonical {@link ErrorCode}, read from the codes themselves: a code's wire value stands
 * for itself, the other values agents report ({@link ErrorCode#reportedAs}) and HTTP statuses
 * ({@link ErrorCode#httpStatuses}) map onto it. A code no entry knows falls back to the HTTP status (any 5xx no entry
 * names is {@link #SERVER_ERROR}); with neither, the code is {@link ErrorCode#UNKNOWN}.
 */
public final class ErrorCodes {
    /** The code of a 5xx status that no code names. */
    public static final ErrorCode SERVER_ERROR = ErrorCode.LLM_UNAVAILABLE;
    /** The other {@code error.code} values agents report, to the code they mean. */
    static final Map<String, ErrorCode> REPORTED_CODES = index(ErrorCode::reportedAs);
    /** The HTTP statuses a code names, to that code. */
    private static final Map<Integer, ErrorCode> HTTP_STATUSES = index(ErrorCode::httpStatuses);

    private ErrorCodes() {
    }

    /**
     * The canonical code for what an agent reported.
     *
     * @param reportedCode the error code as reported (a canonical wire value or another value agents use), or null
     * @param statusCode   the HTTP status of the failed call, or null
     */
    public static ErrorCode canonical(String reportedCode, Integer statusCode) {
        ErrorCode known = reportedCode == null ? null : known(reportedCode);
        if (known != null) {
            return known;
        }
        return statusCode == null ? ErrorCode.UNKNOWN : fromHttpStatus(statusCode);
    }

    /**
     * The canonical code of a failure: {@link ErrorCode#LLM_QUOTA_EXHAUSTED} wherever the provider says a limit of 0 is
     * exhausted (a Google {@code QuotaFailure} with {@code quotaValue} 0; an OpenAI {@code insufficient_quota} body,
     * read as such a window at ingestion), whatever the agent mapped it to (a 429 is not always a rate limit): waiting
     * never helps; else the agent's code and status.
     */
    public static ErrorCode canonical(ErrorInfo error, RateLimitState rateLimit) {
        if (rateLimit != null) {
            for (RateLimitWindow window : rateLimit.getWindows()) {
                if (Long.valueOf(0).equals(window.getLimit()) && Long.valueOf(0).equals(window.getRemaining())) {
                    return ErrorCode.LLM_QUOTA_EXHAUSTED;
                }
            }
        }
        return canonical(error.getCode(), error.getStatusCode());
    }

    /** The code a reported value names (a wire value or another value agents report), or null. */
    private static ErrorCode known(String reportedCode) {
        String code = reportedCode.trim().toLowerCase(Locale.ROOT);
        ErrorCode known = ErrorCode.fromValue(code).orElse(REPORTED_CODES.get(code));
        return known == ErrorCode.UNKNOWN ? null : known;
    }

    /** The code a status names; else any other 5xx is {@link #SERVER_ERROR}, and anything else unknown. */
    static ErrorCode fromHttpStatus(int status) {
        ErrorCode named = HTTP_STATUSES.get(status);
        if (named != null) {
            return named;
        }
        return status >= 500 && status <= 599 ? SERVER_ERROR : ErrorCode.UNKNOWN;
    }

    private static <K> Map<K, ErrorCode> index(Function<ErrorCode, List<K>> keys) {
        Map<K, ErrorCode> index = new HashMap<>();
        for (ErrorCode code : ErrorCode.values()) {
            keys.apply(code).forEach(key -> index.put(key, code));
        }
        return Map.copyOf(index);
    }
}
