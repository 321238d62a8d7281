package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.serde.AvroSerde;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The provider gate's stores, as the gate keeps them and the HTTP queries and meters read them; {@link RetryGate}'s
 * supplier declares these builders, and {@link SignalGate} connects the same stores by name.
 */
public final class ProviderGateStores {
    /** Each scope's circuit, evidence and budgets ({@link ProviderState}), keyed by scope. */
    public static final String STATE_STORE = "provider-state";
    /** The retries a scope's circuit, request budget or retry budget holds, keyed by {@link HeldRetryKey}. */
    public static final String HELD_STORE = "provider-held";

    private ProviderGateStores() {
    }

    static StoreBuilder<KeyValueStore<String, ProviderState>> states(Map<String, ?> serdeConfig) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE_STORE), Serdes.String(),
                AvroSerde.specific(ProviderState.class).configured(serdeConfig, false));
    }

    static StoreBuilder<KeyValueStore<Bytes, byte[]>> held() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(HELD_STORE), Serdes.Bytes(), Serdes.ByteArray());
    }
}
