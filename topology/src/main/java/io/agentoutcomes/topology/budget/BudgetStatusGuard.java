package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.classify.BudgetGuard;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * Budget-aware retries over the budgets' status: a result's retry stops when a budget declared with
 * {@code stop-retries=true} that its spend counts against has a status for the period of the result's event time.
 * The status comes from {@code budget-status} through a global store, so it lags the budget stage by the time the
 * global thread takes to read it (milliseconds): a retry classified in that gap still goes.
 */
public final class BudgetStatusGuard implements BudgetGuard {
    private final BudgetSettings settings;
    private final Function<String, BudgetStatus> statuses;

    /** @param statuses the status of a budget key, null where there is none */
    public BudgetStatusGuard(BudgetSettings settings, Function<String, BudgetStatus> statuses) {
        this.settings = settings;
        this.statuses = statuses;
    }

    @Override
    public Optional<Stop> stop(AgentResult result, long eventTime) {
        for (Budget budget : settings.budgets().values()) {
            if (!budget.stopRetries()) {
                continue;
            }
            String value = budget.valueOf(result);
            BudgetStatus status = value == null ? null : statuses.apply(budget.key(value));
            if (status != null && status.getPeriodStart() == BudgetPeriods.start(budget.period(), eventTime)) {
                return Optional.of(stop(budget, status));
            }
        }
        return Optional.empty();
    }

    /** The stop a budget's status makes: rule {@code budget.<name>.stop-retries=true}, and why, with spend and limit. */
    public static Stop stop(Budget budget, BudgetStatus status) {
        return new Stop(budget.name(), "budget." + budget.name() + ".stop-retries=true", "budget " + budget.name() + " ("
                + budget.dimension().label() + " " + status.getValue() + ") exhausted for the " + Budget.label(budget.period())
                + " from " + Instant.ofEpochMilli(status.getPeriodStart()) + ": spend " + usd(Money.toDecimal(status.getSpend()))
                + " of limit " + usd(budget.limitUsd()));
    }

    private static String usd(BigDecimal amount) {
        return amount.stripTrailingZeros().toPlainString() + " USD";
    }
}
