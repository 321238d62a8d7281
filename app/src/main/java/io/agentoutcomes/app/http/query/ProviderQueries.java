package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.provider.ProviderGateStores;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * The retries each scope moved away to a fallback, by fallback and cause ({@link FallbackCount}s naming the
     * fallback): the counts the fallbacks' scopes keep ({@code fallbacksReceived}, naming where from) turned round, so
     * both directions are the one count. Keyed by {@link #name}.
     */
    public static Map<String, List<FallbackCount>> movedAway(List<ProviderState> scopes) {
        Map<String, List<FallbackCount>> moved = new HashMap<>();
        for (ProviderState to : scopes) {
            for (FallbackCount from : to.getFallbacksReceived()) {
                moved.computeIfAbsent(name(from.getProvider(), from.getModel()), k -> new ArrayList<>())
                        .add(new FallbackCount(to.getProvider(), to.getModel(), from.getCause(), from.getRetries()));
            }
        }
        return moved;
    }

    /** A scope's name: {@code provider/model}, or the provider alone for a scope of a provider. */
    public static String name(String provider, String model) {
        return model == null ? provider : provider + "/" + model;
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
