package io.agentoutcomes.topology.budget;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The declared cost budgets ({@code budget.<name>.*}). With none declared the budget stage is not built at all.
 *
 * @param budgets    the budgets, by name
 * @param partitions partitions of the stage's repartition topic (the topics' own, {@code topic.partitions})
 */
public record BudgetSettings(Map<String, Budget> budgets, int partitions) {
    public BudgetSettings {
        if (partitions < 1) {
            throw new IllegalArgumentException("the budget stage needs at least one partition");
        }
        budgets = Collections.unmodifiableMap(new LinkedHashMap<>(budgets));
    }

    /** No budgets: the stage is not built. */
    public static BudgetSettings none() {
        return new BudgetSettings(Map.of(), 4);
    }

    /** The budgets given, by their names. */
    public static BudgetSettings of(List<Budget> budgets, int partitions) {
        Map<String, Budget> byName = new LinkedHashMap<>();
        budgets.forEach(budget -> byName.put(budget.name(), budget));
        return new BudgetSettings(byName, partitions);
    }

    /** Whether any budget is declared (the stage is built). */
    public boolean enabled() {
        return !budgets.isEmpty();
    }

    /** Whether any budget stops retries once exhausted (classification reads the budgets' status). */
    public boolean stopsRetries() {
        return budgets.values().stream().anyMatch(Budget::stopRetries);
    }

    /** The budget named {@code name}; null if none is (any more). */
    public Budget budget(String name) {
        return budgets.get(name);
    }
}
