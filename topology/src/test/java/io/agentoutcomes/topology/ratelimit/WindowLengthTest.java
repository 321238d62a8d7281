package io.agentoutcomes.topology.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.topology.classify.Backoff;
import io.agentoutcomes.topology.classify.DailyWindow;
import io.agentoutcomes.topology.ingest.ProviderRateLimitHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** A rate-limit window's length is decided once, where the headers are read, and every decision takes it from there. */
class WindowLengthTest {
    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    private static RateLimitWindow exhausted(String name, Long lengthMs) {
        return RateLimitWindow.newBuilder().setName(name).setResource("requests").setRemaining(0L).setLengthMs(lengthMs)
                .build();
    }

    private static RateLimitState state(RateLimitWindow window) {
        return RateLimitState.newBuilder().setLimited(true).setWindows(List.of(window)).build();
    }

    @Test
    void theLengthTheHeadersGaveWinsOverTheName() {
        assertThat(WindowLength.millisOf(exhausted("requests_per_minute", 3_600_000L))).contains(3_600_000L);
        assertThat(WindowLength.millisOf(exhausted("requests_per_minute", null))).contains(60_000L);
        assertThat(WindowLength.millisOf(exhausted("tokens_daily", null))).contains(86_400_000L);
        assertThat(WindowLength.millisOf(exhausted("requests", null))).isEmpty();
    }

    @Test
    void groqHeadersSayTheirWindowsLengths() {
        RateLimitState state = ProviderRateLimitHeaders.complete(null, Map.of("x-ratelimit-limit-requests", "14400",
                "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "2m59.56s",
                "x-ratelimit-remaining-tokens", "5000"), "groq", NOW);

        assertThat(state.getWindows()).extracting(RateLimitWindow::getName, RateLimitWindow::getLengthMs)
                .containsExactlyInAnyOrder(Tuple.tuple("requests_per_day", 86_400_000L),
                        Tuple.tuple("tokens_per_minute", 60_000L));
        // OpenAI's same names say no length: the gate takes its default window, the backoff the reset it was given
        RateLimitState openai = ProviderRateLimitHeaders.complete(null, Map.of("x-ratelimit-remaining-requests", "0",
                "x-ratelimit-reset-requests", "1s"), "openai", NOW);
        assertThat(openai.getWindows()).extracting(RateLimitWindow::getName, RateLimitWindow::getLengthMs)
                .containsExactly(Tuple.tuple("requests", null));
    }

    @Test
    void anExhaustedWindowWithNoResetWaitsByItsTypedLengthNotItsName() {
        Backoff backoff = Backoff.defaults();
        // a name that says nothing, an hour long by its headers: seed 003's hourly wait
        Backoff.Delay hourly = backoff.delay(ErrorCode.LLM_RATE_LIMIT, 0, state(exhausted("bucket-a", 3_600_000L)), NOW,
                new Random(1));
        assertThat(hourly.duration().toMillis()).isEqualTo(3_600_000L);
        assertThat(hourly.why()).startsWith("rate-limit window bucket-a exhausted, no reset given: seed 003's wait 3600000 ms");
        // the same window of no known length: the backoff decides
        Backoff.Delay unknown = backoff.delay(ErrorCode.LLM_RATE_LIMIT, 0, state(exhausted("bucket-a", null)), NOW,
                new Random(1));
        assertThat(unknown.why()).startsWith("backoff ");
    }

    @Test
    void aDailyLimitIsADayLongWindowWhateverItsName() {
        assertThat(DailyWindow.exhausted(state(exhausted("quota", 86_400_000L)), NOW)).map(DailyWindow::name)
                .contains("quota");
        assertThat(DailyWindow.exhausted(state(exhausted("quota", null)), NOW)).isEmpty();
        assertThat(DailyWindow.exhausted(state(exhausted("requests_per_day", null)), NOW)).map(DailyWindow::name)
                .contains("requests_per_day");
    }
}
