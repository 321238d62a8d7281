package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's rate-limit windows: "Daily limit - maybe switch providers; hourly limit - long wait; minute limit - short
 * wait". An exhausted daily window is a retry to run now, on another provider ({@code policy.daily-limit=switch}).
 */
class Seed003DailyLimitTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private static AgentResult limited(String window, long resetsInMs) {
        return AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t")
                .setRateLimit(RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(60_000L).setWindows(List.of(
                        RateLimitWindow.newBuilder().setName("requests_per_minute").setRemaining(5L).build(),
                        RateLimitWindow.newBuilder().setName(window).setResource("tokens").setRemaining(0L)
                                .setResetsInMs(resetsInMs).setHeader("x-ratelimit-remaining-tokens-day: 0").build()))
                        .build())
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("rate_limit").build()).build())
                .build();
    }

    private static ClassifiedOutcome classify(AgentResult result, RetryPolicy policy) {
        return Classification.classify(result, TaskAttempts.newBuilder().build(), policy, NOW, new Random(1));
    }

    @Test
    void seed003ExhaustedDailyWindowSwitchesProviderAtOnce() {
        ClassifiedOutcome outcome = classify(limited("tokens_per_day", 43_200_000L), RetryPolicy.defaults());

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(outcome.getDecision().getAction()).isEqualTo(RetryAction.SWITCH_PROVIDER);
        assertThat(outcome.getDecision().getRule()).isEqualTo("policy.daily-limit=switch");
        assertThat(outcome.getRetryDelayMs()).isZero();
        assertThat(outcome.getRetryDelayReason()).isEqualTo("rate-limit window tokens_per_day exhausted (header "
                + "x-ratelimit-remaining-tokens-day: 0), resets at 2026-03-02T00:00:00Z: switch provider now");
        RetryRequest retry = RetryRequests.of(outcome, RetryPolicy.defaults().tiers());
        assertThat(retry.getAction()).isEqualTo(RetryAction.SWITCH_PROVIDER);
        assertThat(retry.getExhaustedWindow()).isEqualTo("tokens_per_day");
        assertThat(retry.getWindowResetAt()).isEqualTo((NOW.plus(Duration.ofHours(12))).toEpochMilli());
        assertThat(retry.getDueAt()).isEqualTo(NOW.toEpochMilli());
    }

    @Test
    void seed003DailyLimitWaitWaitsForTheWindowsReset() {
        ClassifiedOutcome outcome = classify(limited("tokens_per_day", 43_200_000L),
                RetryPolicy.defaults().withDailyLimit(DailyLimit.WAIT));

        assertThat(outcome.getDecision().getAction()).isEqualTo(RetryAction.WAIT);
        assertThat(outcome.getRetryDelayMs()).isEqualTo(43_200_000L);
    }

    @Test
    void seed003ExhaustedHourlyWindowIsALongWaitNotASwitch() {
        ClassifiedOutcome outcome = classify(limited("tokens_per_hour", 1_800_000L), RetryPolicy.defaults());

        assertThat(outcome.getDecision().getAction()).isEqualTo(RetryAction.WAIT);
        assertThat(outcome.getRetryDelayMs()).isEqualTo(1_800_000L);
    }
}
