package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 003: "Rate limit state for intelligent retry/backoff decisions", read from each provider's response headers
 * in {@code provider_data.raw_headers} when the envelope has no windows: the wait is the reset of the exhausted
 * window (the longest), else {@code retry-after}, else the backoff. One row per provider mapping.
 */
class Seed003RateLimitHeadersTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    static AgentResult normalize(String rawHeaders) {
        return normalize(rawHeaders, "");
    }

    static AgentResult normalize(String rawHeaders, String more) {
        String json = "{\"error\":{\"code\":\"rate_limit\",\"status_code\":429}" + more
                + ",\"provider_data\":{\"raw_headers\":" + rawHeaders + "}}";
        RecordHeaders headers = new RecordHeaders();
        headers.add("agent-id", "flat".getBytes(StandardCharsets.UTF_8));
        return AgentResultNormalizer.normalize(json.getBytes(StandardCharsets.UTF_8),
                new RecordContext("task-1", headers, "agent-results-json", 0, 0, NOW));
    }

    private static ClassifiedOutcome classify(AgentResult result) {
        return Classification.classify(result, TaskAttempts.newBuilder().build(), RetryPolicy.defaults(), NOW,
                new Random(1));
    }

    static Stream<Arguments> providerHeaders() {
        return Stream.of(
                Arguments.of("retry-after in seconds", "{\"retry-after\":\"60\"}", 60_000L,
                        "provider retry_after 60000 ms (header retry-after: 60) (over backoff 5000 ms x 2^0)"),
                Arguments.of("retry-after as an HTTP date", "{\"retry-after\":\"Sun, 01 Mar 2026 12:02:00 GMT\"}", 120_000L,
                        "provider retry_after 120000 ms (header retry-after: Sun, 01 Mar 2026 12:02:00 GMT)"
                                + " (over backoff 5000 ms x 2^0)"),
                Arguments.of("retry-after-ms", "{\"retry-after-ms\":\"7500\",\"retry-after\":\"8\"}", 7_500L,
                        "provider retry_after 7500 ms (header retry-after-ms: 7500) (over backoff 5000 ms x 2^0)"),
                Arguments.of("OpenAI requests exhausted", "{\"x-ratelimit-limit-requests\":\"60\","
                        + "\"x-ratelimit-remaining-requests\":\"0\",\"x-ratelimit-reset-requests\":\"6m30s\","
                        + "\"x-ratelimit-limit-tokens\":\"150000\",\"x-ratelimit-remaining-tokens\":\"149000\","
                        + "\"x-ratelimit-reset-tokens\":\"20ms\"}", 390_000L,
                        "rate-limit window requests exhausted (header x-ratelimit-remaining-requests: 0), resets in "
                                + "390000 ms (over backoff 5000 ms x 2^0)"),
                Arguments.of("Anthropic tokens exhausted", "{\"anthropic-ratelimit-requests-limit\":\"50\","
                        + "\"anthropic-ratelimit-requests-remaining\":\"49\","
                        + "\"anthropic-ratelimit-requests-reset\":\"2026-03-01T12:00:01Z\","
                        + "\"anthropic-ratelimit-tokens-limit\":\"40000\",\"anthropic-ratelimit-tokens-remaining\":\"0\","
                        + "\"anthropic-ratelimit-tokens-reset\":\"2026-03-01T12:01:30Z\"}", 90_000L,
                        "rate-limit window tokens exhausted (header anthropic-ratelimit-tokens-remaining: 0), resets in "
                                + "90000 ms (over backoff 5000 ms x 2^0)"),
                Arguments.of("Anthropic output tokens, retry-after shorter", "{\"retry-after\":\"10\","
                        + "\"anthropic-ratelimit-output-tokens-remaining\":\"0\","
                        + "\"anthropic-ratelimit-output-tokens-reset\":\"2026-03-01T12:00:40Z\"}", 40_000L,
                        "rate-limit window output_tokens exhausted (header anthropic-ratelimit-output-tokens-remaining: 0),"
                                + " resets in 40000 ms (over backoff 5000 ms x 2^0)"),
                Arguments.of("Cerebras minute and hour exhausted: the longest", "{"
                        + "\"x-ratelimit-limit-requests-minute\":\"30\",\"x-ratelimit-remaining-requests-minute\":\"0\","
                        + "\"x-ratelimit-reset-requests-minute\":\"45.5\","
                        + "\"x-ratelimit-remaining-tokens-hour\":\"0\",\"x-ratelimit-reset-tokens-hour\":\"1800\","
                        + "\"x-ratelimit-remaining-tokens-day\":\"500000\",\"x-ratelimit-reset-tokens-day\":\"43200\"}",
                        1_800_000L,
                        "rate-limit window tokens_per_hour exhausted (header x-ratelimit-remaining-tokens-hour: 0), resets "
                                + "in 1800000 ms (over backoff 5000 ms x 2^0)"),
                Arguments.of("nothing exhausted, no retry-after: the backoff", "{\"x-ratelimit-remaining-requests\":\"3\","
                        + "\"x-ratelimit-reset-requests\":\"1s\"}", 5_000L, "backoff 5000 ms x 2^0"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providerHeaders")
    void seed003ProviderRateLimitHeadersSetTheWait(String row, String rawHeaders, long delayMs, String why) {
        ClassifiedOutcome outcome = classify(normalize(rawHeaders));

        assertThat(outcome.getRetryDelayMs()).isEqualTo(delayMs);
        assertThat(outcome.getRetryDelayReason()).isEqualTo(why);
    }

    @Test
    void seed003CerebrasHeadersFillTheWindowsWhereTheEnvelopeHasNone() {
        AgentResult result = normalize("{\"x-ratelimit-limit-requests-minute\":\"30\","
                + "\"x-ratelimit-remaining-requests-minute\":\"10\",\"x-ratelimit-reset-requests-minute\":\"45\","
                + "\"x-ratelimit-remaining-tokens-day\":\"500000\"}");

        assertThat(result.getRateLimit().getWindows()).containsExactly(
                RateLimitWindow.newBuilder().setName("requests_per_minute").setResource("requests").setLimit(30L)
                        .setRemaining(10L).setResetsInMs(45_000L).setResetAtMs(NOW.toEpochMilli() + 45_000L)
                        .setHeader("x-ratelimit-remaining-requests-minute: 10").setLengthMs(60_000L).build(),
                RateLimitWindow.newBuilder().setName("tokens_per_day").setResource("tokens").setRemaining(500_000L)
                        .setHeader("x-ratelimit-remaining-tokens-day: 500000").setLengthMs(86_400_000L).build());
        assertThat(result.getRateLimit().getLimited()).isFalse();
        assertThat(result.getProviderData().getRawHeaders()).containsKey("x-ratelimit-remaining-tokens-day");
    }

    @Test
    void seed003WindowsTheEnvelopeGivesWinOverHeaders() {
        AgentResult result = normalize("{\"x-ratelimit-remaining-requests\":\"0\",\"x-ratelimit-reset-requests\":\"1h\"}",
                ",\"rate_limit\":{\"limited\":true,\"windows\":[{\"name\":\"requests_per_minute\",\"remaining\":0,"
                        + "\"resets_in\":20}]}");

        assertThat(result.getRateLimit().getWindows()).extracting(RateLimitWindow::getName)
                .containsExactly("requests_per_minute");
        assertThat(classify(result).getRetryDelayMs()).isEqualTo(20_000L);
    }
}
