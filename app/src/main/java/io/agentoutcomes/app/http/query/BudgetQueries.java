package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.budget.BudgetStores;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The budgets' spend per value and period from every instance's store {@value BudgetStores#SPEND_STORE}: this
 * instance's partitions read directly, the others' through {@link QueryFanOut}. With no budget declared there is no
 * store and nothing to read.
 */
public final class BudgetQueries {
    private final QueryFanOut fanOut;
    private final BudgetSettings settings;

    public BudgetQueries(QueryFanOut fanOut, BudgetSettings settings) {
        this.fanOut = fanOut;
        this.settings = settings;
    }

    /** The declared budgets (their limits and periods, which the spend is shown against). */
    public BudgetSettings settings() {
        return settings;
    }

    /** Every budget value's spend of every instance, by budget and value. */
    public List<BudgetState> spend() {
        if (!settings.enabled()) {
            return List.of();
        }
        List<BudgetState> all = new ArrayList<>(fanOut.all(BudgetStores.SPEND_STORE, this::local, "/budgets/export",
                BudgetState.class));
        all.sort(Comparator.comparing(BudgetState::getBudget).thenComparing(BudgetState::getValue));
        return all;
    }

    /** This instance's budget values, encoded for another instance; unavailable unless complete. */
    public byte[] export() {
        fanOut.requireComplete();
        return RecordListCodec.encodeList(settings.enabled() ? local() : List.of(), BudgetState.class);
    }

    private List<BudgetState> local() {
        return fanOut.localValues(BudgetStores.SPEND_STORE, "the budgets' partitions of this instance are moving");
    }
}
