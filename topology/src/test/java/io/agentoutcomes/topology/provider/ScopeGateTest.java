package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.RateLimitWindow;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One scope at the gate, alone: what it allows, holds, releases and stops, at the default settings unless said. */
class ScopeGateTest {
    /** On a slice of the circuit's window (5 s) and of the retry budget's (1 s). */
    private static final long NOW = 1_800_000_000_000L;
    private static final ProviderGateSettings DEFAULTS = ProviderGateSettings.defaults();

    private static ScopeGate scope(ProviderGateSettings settings) {
        return ScopeGate.open("acme", "m1", NOW, settings);
    }

    private static ProviderSignal tally(long outcomes, long successes, long failures) {
        return ProviderSignal.newBuilder().setProvider("acme").setModel("m1").setFrom(NOW - 1_000).setTo(NOW)
                .setOutcomes(outcomes).setSuccesses(successes).setFailures(failures).build();
    }

    /** As the gate's processor does: a retry let through, or held, counted. */
    private static boolean admit(ScopeGate scope, long now) {
        if (scope.admits(now)) {
            scope.letThrough(now);
            return true;
        }
        scope.hold();
        return false;
    }

    @Test
    void aNewScopeIsClosedAndLetsTheRetryBudgetsReserveThrough() {
        ScopeGate scope = scope(DEFAULTS);

        assertThat(scope.circuit()).isEqualTo(CircuitState.CLOSED);
        assertThat(scope.allowance(NOW)).isEqualTo(100);
        assertThat(admit(scope, NOW)).isTrue();
        assertThat(scope.held()).isZero();
        assertThat(scope.allowance(NOW)).isEqualTo(99);
    }

    @Test
    void anExhaustedRequestWindowHoldsRetriesUntilItsResetThenReleasesThemAtItsPace() {
        ScopeGate scope = scope(DEFAULTS);
        scope.advertise(List.of(RateLimitWindow.newBuilder().setName("requests").setResource("requests").setLimit(60L)
                .setRemaining(0L).setResetsInMs(20_000L).setLengthMs(60_000L).build()), NOW, NOW);

        assertThat(scope.allowance(NOW + 1_000)).isZero();
        assertThat(scope.sickness(NOW + 1_000)).isEqualTo(FallbackCause.REQUESTS_EXHAUSTED);
        assertThat(admit(scope, NOW + 1_000)).isFalse();
        assertThat(scope.held()).isEqualTo(1);
        // refilled from the reset at 59 requests per 60.1 s: 0.98 a second, up to the burst of 1 and a check's refill
        assertThat(scope.allowance(NOW + 21_000)).isZero();
        assertThat(scope.allowance(NOW + 22_000)).isEqualTo(1);
        assertThat(scope.sickness(NOW + 22_000)).isNull();

        scope.release(1, NOW + 22_000);

        assertThat(scope.held()).isZero();
        assertThat(scope.state().getPaced()).isEqualTo(1);
        assertThat(scope.allowance(NOW + 22_000)).isZero();
    }

    @Test
    void failuresAtTheRateOpenTheCircuitWhichHalfOpensToItsProbesAfterTheOpenTime() {
        ScopeGate scope = scope(DEFAULTS);

        assertThat(scope.observe(tally(20, 0, 20), NOW)).contains(ProviderHealth.newBuilder().setProvider("acme").setModel("m1")
                .setState(CircuitState.OPEN).setPrevious(CircuitState.CLOSED).setAt(NOW)
                .setReason("20 of 20 outcomes in 60 s were failures of [llm-timeout, llm-unavailable] (rate 1.00 >= 0.50)")
                .setOutcomes(20).setFailures(20).setWindowMs(60_000).setHeldRetries(0).build());
        assertThat(scope.allowance(NOW)).isZero();
        assertThat(scope.sickness(NOW)).isEqualTo(FallbackCause.CIRCUIT_OPEN);
        assertThat(scope.evaluate(NOW + 29_999)).isEmpty();

        assertThat(scope.evaluate(NOW + 30_000)).contains(ProviderHealth.newBuilder().setProvider("acme").setModel("m1")
                .setState(CircuitState.HALF_OPEN).setPrevious(CircuitState.OPEN).setAt(NOW + 30_000)
                .setReason("open for 30 s: releasing up to 5 retries as probes").setOutcomes(20).setFailures(20)
                .setWindowMs(60_000).setHeldRetries(0).build());
        assertThat(scope.allowance(NOW + 30_000)).isEqualTo(5);
        assertThat(admit(scope, NOW + 30_000)).isTrue();
        assertThat(scope.state().getProbesReleased()).isEqualTo(1);
        assertThat(scope.allowance(NOW + 30_000)).isEqualTo(4);
    }

    @Test
    void retriesHeldWhileOnlyTheSpentRetryBudgetHoldsThemAreStoppedAfterTheMaxHold() {
        ScopeGate scope = scope(DEFAULTS.withBudget(new RetryBudgetSettings(true, 20, 1, Duration.ofSeconds(10),
                Duration.ofSeconds(1))));
        for (int reserve = 0; reserve < 10; reserve++) {
            assertThat(admit(scope, NOW)).isTrue();
        }
        assertThat(admit(scope, NOW)).isFalse();

        assertThat(scope.stopDueBefore(NOW)).isEqualTo(Long.MIN_VALUE);
        assertThat(scope.budgetExhaustedSince()).isEqualTo(NOW);
        assertThat(scope.stopDueBefore(NOW + 1_000)).isEqualTo(NOW);

        scope.stopped(1);

        assertThat(scope.held()).isZero();
        assertThat(scope.state().getBudgetStopped()).isEqualTo(1);
        assertThat(scope.stopDueBefore(NOW + 1_000)).isEqualTo(Long.MIN_VALUE);
        assertThat(scope.budgetExhaustedSince()).isZero();
    }

    @Test
    void retriesMovedHereAreCountedByTheScopeTheyCameFromAndWhy() {
        ScopeGate scope = scope(DEFAULTS);

        scope.received("acme", "m2", FallbackCause.CIRCUIT_OPEN);
        scope.received("acme", "m2", FallbackCause.CIRCUIT_OPEN);
        scope.received("acme", "m2", FallbackCause.DAILY_LIMIT);

        assertThat(scope.state().getFallbacksReceived()).containsExactly(
                new FallbackCount("acme", "m2", FallbackCause.CIRCUIT_OPEN, 2L),
                new FallbackCount("acme", "m2", FallbackCause.DAILY_LIMIT, 1L));
    }

    @Test
    void aScopeIsIdleOnlyPastTheIdleExpiryWithNothingHeld() {
        ScopeGate scope = scope(DEFAULTS);
        scope.touch(NOW);
        long expiry = DEFAULTS.idleExpiry().toMillis();

        assertThat(scope.idle(NOW + expiry)).isFalse();
        assertThat(scope.idle(NOW + expiry + 1)).isTrue();
        scope.hold();
        assertThat(scope.idle(NOW + expiry + 1)).isFalse();
    }
}
