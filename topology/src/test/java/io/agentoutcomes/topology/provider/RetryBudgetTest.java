package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.ProviderState;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** The retry budget's arithmetic alone, on a scope's state: 20 % of the requests and 1 a second over a 10 s window. */
class RetryBudgetTest {
    private static final RetryBudgetSettings BUDGET = new RetryBudgetSettings(true, 20, 1, Duration.ofSeconds(10),
            Duration.ofMinutes(1));
    private final ProviderState state = ProviderState.newBuilder().setProvider("acme").setModel("m1")
            .setBuckets(new ArrayList<>()).setBudgets(new ArrayList<>()).setRetrySlices(new ArrayList<>()).build();

    @Test
    void aQuietScopeMayReleaseItsReserveAndNoMore() {
        assertThat(RetryBudget.allowance(state, 100_000, BUDGET)).isEqualTo(10);
        RetryBudget.spend(state, 10, 100_000, BUDGET);
        assertThat(RetryBudget.allowance(state, 100_500, BUDGET)).isZero();
    }

    @Test
    void requestsAddAFifthOfThemselvesRoundedDown() {
        RetryBudget.observe(state, 104, 100_000, BUDGET);
        assertThat(RetryBudget.allowance(state, 100_500, BUDGET)).isEqualTo(20 + 10);
        RetryBudget.spend(state, 25, 100_500, BUDGET);
        assertThat(RetryBudget.allowance(state, 100_600, BUDGET)).isEqualTo(5);
    }

    @Test
    void aRequestCountsWhileItsWholeSliceIsInTheWindowAReleaseWhileAnyOfItIs() {
        RetryBudget.observe(state, 100, 100_500, BUDGET);
        RetryBudget.spend(state, 25, 100_500, BUDGET);
        // the slice [100 000, 101 000) is whole in the window up to 110 000
        assertThat(RetryBudget.allowance(state, 110_000, BUDGET)).isEqualTo(20 + 10 - 25);
        assertThat(RetryBudget.requests(state, 110_000, BUDGET)).isEqualTo(100);
        // from 110 001 its requests no longer count, its releases still do until 111 000
        assertThat(RetryBudget.allowance(state, 110_001, BUDGET)).isZero();
        assertThat(RetryBudget.allowance(state, 110_999, BUDGET)).isZero();
        assertThat(RetryBudget.allowance(state, 111_000, BUDGET)).isEqualTo(10);
        assertThat(state.getRetrySlices()).isEmpty();
    }

    @Test
    void aBudgetThatCouldNeverReleaseIsRefused() {
        assertThatThrownBy(() -> new RetryBudgetSettings(true, 0, 0, Duration.ofSeconds(10), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryBudgetSettings(true, 20, 1, Duration.ofMillis(999), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
