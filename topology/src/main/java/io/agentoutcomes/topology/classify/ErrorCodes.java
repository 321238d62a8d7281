package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCode;
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
        if (reportedCode != null) {
            String code = reportedCode.trim().toLowerCase(Locale.ROOT);
            ErrorCode known = ErrorCode.fromValue(code).orElse(REPORTED_CODES.get(code));
            if (known != null && known != ErrorCode.UNKNOWN) {
                return known;
            }
        }
        return statusCode == null ? ErrorCode.UNKNOWN : fromHttpStatus(statusCode);
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
