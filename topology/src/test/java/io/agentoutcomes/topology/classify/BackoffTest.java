package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BackoffTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private final Backoff backoff = Backoff.defaults();

    private long delayMs(ErrorCode code, int attempt, RateLimitState rateLimit) {
        return backoff.delay(code, attempt, rateLimit, NOW, new Random(1)).duration().toMillis();
    }

    @ParameterizedTest(name = "{0} after attempt {1}: {2} ms")
    @CsvSource({
        "LLM_RATE_LIMIT, 0, 5000", "LLM_RATE_LIMIT, 1, 10000", "LLM_RATE_LIMIT, 2, 20000", "LLM_RATE_LIMIT, 3, 30000",
        "LLM_RATE_LIMIT, 4, 30000",
        "LLM_TIMEOUT, 0, 1000", "LLM_TIMEOUT, 1, 2000", "LLM_TIMEOUT, 2, 4000", "LLM_TIMEOUT, 3, 8000",
        "LLM_TIMEOUT, 4, 16000", "LLM_TIMEOUT, 5, 30000",
        "LLM_UNAVAILABLE, 0, 10000", "LLM_UNAVAILABLE, 1, 20000", "LLM_UNAVAILABLE, 2, 30000",
        "EVENT_TIMEOUT, 0, 2000", "EVENT_TIMEOUT, 1, 4000", "EVENT_TIMEOUT, 4, 30000",
        "EVENT_UNAVAILABLE, 0, 5000", "EVENT_UNAVAILABLE, 1, 10000", "EVENT_UNAVAILABLE, 3, 30000",
        "INVALID_INPUT, 0, 2000", "UNKNOWN, 0, 2000", "UNKNOWN, 1, 4000", "AUTH_FAILED, 2, 8000",
        "LLM_REFUSAL, 30, 30000",
    })
    void seed000BackoffTableCappedAt30Seconds(ErrorCode code, int attempt, long expectedMs) {
        assertThat(delayMs(code, attempt, null)).isEqualTo(expectedMs);
    }

    @Test
    void explainsTheFormula() {
        assertThat(backoff.delay(ErrorCode.LLM_RATE_LIMIT, 3, null, NOW, new Random()).why())
                .isEqualTo("backoff 5000 ms x 2^3, capped at 30000 ms");
        assertThat(backoff.delay(ErrorCode.LLM_TIMEOUT, 1, null, NOW, new Random()).why()).isEqualTo("backoff 1000 ms x 2^1");
    }

    @Test
    void providerRetryAfterRaisesTheDelayEvenPastTheCap() {
        RateLimitState rateLimit = RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(60_000L).build();

        Backoff.Delay delay = backoff.delay(ErrorCode.LLM_RATE_LIMIT, 0, rateLimit, NOW, new Random());

        assertThat(delay.duration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(delay.why()).isEqualTo("provider retry_after 60000 ms (over backoff 5000 ms x 2^0)");
    }

    @Test
    void aShorterRetryAfterDoesNotLowerTheBackoff() {
        RateLimitState rateLimit = RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(1_000L).build();

        assertThat(delayMs(ErrorCode.LLM_RATE_LIMIT, 1, rateLimit)).isEqualTo(10_000);
    }

    @Test
    void anExhaustedWindowWaitsForItsReset() {
        RateLimitState rateLimit = RateLimitState.newBuilder().setLimited(true).setWindows(List.of(
                RateLimitWindow.newBuilder().setName("requests_per_minute").setRemaining(0L).setResetsInMs(45_000L).build(),
                RateLimitWindow.newBuilder().setName("tokens_per_day").setRemaining(500_000L).setResetsInMs(43_200_000L).build(),
                RateLimitWindow.newBuilder().setName("tokens_per_hour").setRemaining(0L)
                        .setResetAtMs(NOW.toEpochMilli() + 50_000L).build())).build();

        Backoff.Delay delay = backoff.delay(ErrorCode.LLM_RATE_LIMIT, 0, rateLimit, NOW, new Random());

        assertThat(delay.duration()).isEqualTo(Duration.ofSeconds(50));
        assertThat(delay.why()).startsWith("rate-limit window tokens_per_hour exhausted, resets in 50000 ms");
    }

    @Test
    void jitterSpreadsWithinItsFractionAndIsOffByDefault() {
        Backoff jittered = backoff.withJitter(Jitter.parse("0.2"));
        Random random = new Random(42);
        for (int i = 0; i < 1_000; i++) {
            long ms = jittered.delay(ErrorCode.LLM_TIMEOUT, 2, null, NOW, random).duration().toMillis();
            assertThat(ms).isBetween(3_200L, 4_800L);
        }
        assertThat(backoff.jitter()).isEqualTo(Jitter.NONE);
        assertThat(backoff.delay(ErrorCode.LLM_TIMEOUT, 2, null, NOW, new Random()).why()).isEqualTo("backoff 1000 ms x 2^2");
    }

    /** Issue 33: full and equal jitter (the "exponential backoff and jitter" analysis), opt-in. */
    @Test
    void fullAndEqualJitterSpreadTheComputedDelayAndSayTheirRange() {
        Backoff.Delay full = backoff.withJitter(Jitter.parse("full")).delay(ErrorCode.LLM_TIMEOUT, 2, null, NOW,
                new FixedDraw(0.25));
        assertThat(full.duration()).isEqualTo(Duration.ofMillis(1_000));
        assertThat(full.why()).isEqualTo("backoff 1000 ms x 2^2, full jitter 0-4000 ms: 1000 ms");

        Backoff.Delay equal = backoff.withJitter(Jitter.parse("EQUAL")).delay(ErrorCode.LLM_TIMEOUT, 2, null, NOW,
                new FixedDraw(0.5));
        assertThat(equal.duration()).isEqualTo(Duration.ofMillis(3_000));
        assertThat(equal.why()).isEqualTo("backoff 1000 ms x 2^2, equal jitter 2000-4000 ms: 3000 ms");
    }

    @Test
    void jitterNeverMakesARetryEarlierThanTheProvidersRetryAfter() {
        RateLimitState retryAfter = RateLimitState.newBuilder().setRetryAfterMs(3_000L).build();
        Backoff.Delay delay = backoff.withJitter(Jitter.parse("full")).delay(ErrorCode.LLM_TIMEOUT, 2, retryAfter, NOW,
                new FixedDraw(0.0));
        assertThat(delay.duration()).isEqualTo(Duration.ofMillis(3_000));
        assertThat(delay.why()).isEqualTo("provider retry_after 3000 ms (over backoff 1000 ms x 2^2, full jitter 0-4000 ms: 0 ms)");
    }

    @Test
    void jitterSettingsAreNoneFullEqualOrAFraction() {
        assertThat(Jitter.parse("none")).isEqualTo(Jitter.NONE);
        assertThat(Jitter.parse("0")).isEqualTo(Jitter.NONE);
        assertThat(Jitter.parse(" Full ").kind()).isEqualTo(Jitter.Kind.FULL);
        assertThat(Jitter.parse("0.1")).isEqualTo(new Jitter(Jitter.Kind.PROPORTIONAL, 0.1));
        assertThat(Jitter.parse("0.1").toString()).isEqualTo("0.1");
        assertThatThrownBy(() -> Jitter.parse("1.5")).hasMessage("a jitter fraction must be in 0..1, was 1.5");
        assertThatThrownBy(() -> Jitter.parse("random")).hasMessage("'random' is not none, full, equal or a fraction 0..1");
    }

    /** A draw of the test's choosing. */
    private static final class FixedDraw extends Random {
        private final double draw;

        FixedDraw(double draw) {
            this.draw = draw;
        }

        @Override
        public double nextDouble() {
            return draw;
        }
    }

    @Test
    void basesAndCapAreConfigurable() {
        Backoff custom = backoff.withBase(ErrorCode.LLM_TIMEOUT, Duration.ofMillis(250)).withCap(Duration.ofSeconds(1));

        assertThat(custom.delay(ErrorCode.LLM_TIMEOUT, 1, null, NOW, new Random()).duration()).isEqualTo(Duration.ofMillis(500));
        assertThat(custom.delay(ErrorCode.LLM_TIMEOUT, 5, null, NOW, new Random()).duration()).isEqualTo(Duration.ofSeconds(1));
    }
}
