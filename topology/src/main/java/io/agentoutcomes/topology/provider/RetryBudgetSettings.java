package io.agentoutcomes.topology.provider;

import java.time.Duration;

/**
 * A scope's retry budget (issue 33): the retries the gate releases in any sliding {@code window} are at most
 * {@code percent} of the scope's requests seen in it (its outcomes: successes and failures) plus a reserve of
 * {@code minPerSecond} per second of the window, as Finagle's and tower's retry budgets (Envoy's {@code budget_percent}
 * is the same 20 %). A retry held longer than {@code maxHold} past its due time while the budget is what holds it is
 * stopped ({@code retry_budget_exhausted}).
 *
 * @param enabled      whether retries are budgeted at all
 * @param percent      retries allowed per 100 requests of the window
 * @param minPerSecond retries allowed per second of the window whatever the requests (a quiet scope can still retry)
 * @param window       the sliding window requests and retries are counted over
 * @param maxHold      how long past its due time a retry the budget holds may wait before it is stopped
 */
public record RetryBudgetSettings(boolean enabled, double percent, double minPerSecond, Duration window, Duration maxHold) {
    public RetryBudgetSettings {
        if (percent < 0 || minPerSecond < 0 || percent == 0 && minPerSecond == 0 || window.toMillis() < 1_000
                || maxHold.toMillis() < 1) {
            throw new IllegalArgumentException("a retry budget needs a non-negative percent and floor, not both 0, a window "
                    + "of a second or more and a positive max hold");
        }
    }

    public static RetryBudgetSettings defaults() {
        return new RetryBudgetSettings(true, 20, 10, Duration.ofSeconds(10), Duration.ofMinutes(10));
    }

    public static RetryBudgetSettings off() {
        return new RetryBudgetSettings(false, 20, 10, Duration.ofSeconds(10), Duration.ofMinutes(10));
    }

    /** The reserve: retries the floor allows in one window. */
    long reserve() {
        return (long) Math.floor(minPerSecond * window.toMillis() / 1_000.0);
    }
}
