package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Budget-aware retries, as classification sees them: whether a result's retry is to stop because a budget its spend
 * counts against (one declared with {@code stop-retries=true}) is exhausted in the period of the result's event time.
 * Declared here and implemented by the budget stage, whose status classification reads; classification knows no
 * budget.
 */
@FunctionalInterface
public interface BudgetGuard {
    /** No budget stops anything. */
    BudgetGuard NONE = (result, eventTime) -> Optional.empty();

    /** The exhausted budget that stops a retry of {@code result}, if any. */
    Optional<Stop> stop(AgentResult result, long eventTime);

    /**
     * A retry stopped by a budget.
     *
     * @param budget the budget's name
     * @param rule   the setting that stopped it ({@code budget.<name>.stop-retries=true})
     * @param why    the budget, its value and period, spend and limit, in words
     */
    record Stop(String budget, String rule, String why) {
    }

    /** How a classifying processor gets its guard: in its own context, where the budgets' status is read. */
    @FunctionalInterface
    interface Factory {
        Factory NONE = context -> BudgetGuard.NONE;

        BudgetGuard open(ProcessorContext<?, ?> context);
    }
}
