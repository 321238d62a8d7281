package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider's HTTP error body as an agent passes it on ({@code provider_data.error_body}), read for what the headers do
 * not say: the provider's own error code ({@code error.code}, else {@code error.type}) where it says the account's quota
 * or credit is used up (OpenAI's {@code insufficient_quota}, Anthropic's {@code billing_error}: the codes
 * {@link ErrorCode#LLM_QUOTA_EXHAUSTED} names), as an exhausted window of limit 0 named by that code, which no wait
 * resets; and Google's {@code google.rpc} details
 * ({@code RetryInfo.retryDelay}, a wait; {@code QuotaFailure} violations, each an exhausted window named by its
 * {@code quotaId}, e.g. {@code GenerateRequestsPerDayPerProjectPerModel-FreeTier}, its limit the {@code quotaValue});
 * OpenRouter's headers repeated in {@code error.metadata.headers} and the limit its message names.
 * Lenient: a body of another shape adds nothing, and never loses the result. Pure.
 */
final class ProviderErrorBody {
    /** OpenRouter's message naming the limit it enforces: {@code Rate limit exceeded: free-models-per-day. ...}. */
    private static final Pattern NAMED_LIMIT = Pattern.compile("^Rate limit exceeded: ([A-Za-z0-9_-]{1,64})");
    private static final String RETRY_INFO = "google.rpc.RetryInfo";
    private static final String QUOTA_FAILURE = "google.rpc.QuotaFailure";
    /** Longer codes are not codes any provider sends. */
    private static final int MAX_CODE_CHARS = 64;

    private ProviderErrorBody() {
    }

    /** The provider's own error code: the body's {@code error.code} when a string, else its {@code error.type}; or null. */
    private static String providerCode(JsonNode body) {
        JsonNode error = body == null ? null : body.get("error");
        if (error == null || !error.isObject()) {
            return null;
        }
        for (String field : List.of("code", "type")) {
            JsonNode value = error.get(field);
            if (value != null && value.isTextual() && !value.asText().isBlank() && value.asText().length() <= MAX_CODE_CHARS) {
                return value.asText().trim();
            }
        }
        return null;
    }

    /**
     * The rate-limit state completed from the body: a {@code RetryInfo} delay later than the state's wait replaces it
     * (the latest signal wins), each {@code QuotaFailure} violation is added as an exhausted window; null when neither
     * the state nor the body says anything.
     */
    static RateLimitState complete(RateLimitState state, JsonNode body) {
        String code = providerCode(body);
        boolean quota = code != null && ErrorCode.LLM_QUOTA_EXHAUSTED.reportedAs().contains(code.toLowerCase(Locale.ROOT));
        JsonNode details = body == null || body.get("error") == null ? null : body.get("error").get("details");
        if (!quota && (details == null || !details.isArray())) {
            return state;
        }
        RateLimitState.Builder completed = state == null ? RateLimitState.newBuilder() : RateLimitState.newBuilder(state);
        boolean changed = quota;
        List<RateLimitWindow> windows = new ArrayList<>();
        if (completed.hasWindows()) {
            windows.addAll(completed.getWindows());
        }
        if (quota) {
            windows.add(RateLimitWindow.newBuilder().setName(code).setRemaining(0L).setLimit(0L)
                    .setHeader("error_body error: " + code).build());
        }
        for (JsonNode detail : details == null || !details.isArray() ? List.<JsonNode>of() : details) {
            String type = detail.path("@type").asText("");
            if (type.endsWith(RETRY_INFO)) {
                Long delay = duration(detail.path("retryDelay").asText(""));
                if (delay != null && (completed.getRetryAfterMs() == null || completed.getRetryAfterMs() < delay)) {
                    completed.setRetryAfterMs(delay)
                            .setRetryAfterHeader("error_body RetryInfo.retryDelay: " + detail.path("retryDelay").asText());
                    changed = true;
                }
            } else if (type.endsWith(QUOTA_FAILURE) && detail.path("violations").isArray()) {
                for (JsonNode violation : detail.path("violations")) {
                    RateLimitWindow window = window(violation);
                    if (window != null) {
                        windows.add(window);
                        changed = true;
                    }
                }
            }
        }
        if (!changed) {
            return state;
        }
        return completed.setWindows(windows).setLimited(true).build();
    }

    /**
     * The response headers a provider repeats in its body ({@code error.metadata.headers}, as OpenRouter does for a
     * limit it enforces), textual values only; empty when there are none.
     */
    static Map<String, String> headers(JsonNode body) {
        JsonNode headers = body == null ? null : body.path("error").path("metadata").get("headers");
        Map<String, String> read = new LinkedHashMap<>();
        if (headers != null && headers.isObject()) {
            headers.fields().forEachRemaining(header -> {
                if (header.getValue().isTextual() || header.getValue().isNumber()) {
                    read.put(header.getKey(), header.getValue().asText());
                }
            });
        }
        return read;
    }

    /**
     * The state with its suffix-less {@code requests} window named as the provider's message names the limit
     * ({@code Rate limit exceeded: free-models-per-day}), so a daily limit is known as one; else as it is.
     */
    static RateLimitState named(RateLimitState state, JsonNode body) {
        Matcher limit = NAMED_LIMIT.matcher(body == null ? "" : body.path("error").path("message").asText(""));
        if (state == null || !limit.find()) {
            return state;
        }
        List<RateLimitWindow> windows = new ArrayList<>();
        for (RateLimitWindow window : state.getWindows()) {
            boolean suffixless = window.getHeader() != null && window.getHeader().startsWith("x-ratelimit-remaining:");
            windows.add(suffixless ? RateLimitWindow.newBuilder(window).setName(limit.group(1)).build() : window);
        }
        return RateLimitState.newBuilder(state).setWindows(windows).build();
    }

    /** A violated quota as an exhausted window, named by its quotaId; null without one. */
    private static RateLimitWindow window(JsonNode violation) {
        String quotaId = violation.path("quotaId").asText("");
        if (quotaId.isBlank() || quotaId.length() > MAX_CODE_CHARS * 2) {
            return null;
        }
        Long limit = count(violation.path("quotaValue").asText(""));
        String resource = quotaId.toLowerCase(Locale.ROOT).contains("token") ? "tokens" : "requests";
        return RateLimitWindow.newBuilder().setName(quotaId).setResource(resource).setRemaining(0L).setLimit(limit)
                .setHeader("error_body QuotaFailure quotaId: " + quotaId + (limit == null ? "" : ", quotaValue: " + limit))
                .build();
    }

    /** A protobuf Duration as JSON writes it ({@code 26s}, {@code 25.465784708s}) in milliseconds; null otherwise. */
    static Long duration(String value) {
        if (!value.endsWith("s") || value.length() > MAX_CODE_CHARS) {
            return null;
        }
        try {
            BigDecimal seconds = new BigDecimal(value.substring(0, value.length() - 1));
            if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1000)) > 0) {
                return null;
            }
            return seconds.movePointRight(3).longValue();
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long count(String value) {
        try {
            BigDecimal number = new BigDecimal(value);
            return number.signum() < 0 || number.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? null : number.longValue();
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
