package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.provider.ProviderGateStores;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The provider gate's scopes (their circuits, budgets and held retries) from every instance's store
 * {@value ProviderGateStores#STATE_STORE}: this instance's partitions read directly, the others' through
 * {@link QueryFanOut}. Complete or {@link QueryUnavailable}.
 */
public final class ProviderQueries {
    private final QueryFanOut fanOut;

    public ProviderQueries(QueryFanOut fanOut) {
        this.fanOut = fanOut;
    }

    /** Every scope of every instance, by provider and model. */
    public List<ProviderState> scopes() {
        List<ProviderState> all = new ArrayList<>(fanOut.all(ProviderGateStores.STATE_STORE, this::local, "/providers/export",
                ProviderState.class));
        all.sort(Comparator.comparing(ProviderState::getProvider)
                .thenComparing(state -> state.getModel() == null ? "" : state.getModel()));
        return all;
    }

    /** This instance's scopes, encoded for another instance; unavailable unless complete. */
    public byte[] export() {
        fanOut.requireComplete();
        return RecordListCodec.encodeList(local(), ProviderState.class);
    }

    private List<ProviderState> local() {
        return fanOut.localValues(ProviderGateStores.STATE_STORE, "the provider gate's partitions of this instance are moving");
    }
}
