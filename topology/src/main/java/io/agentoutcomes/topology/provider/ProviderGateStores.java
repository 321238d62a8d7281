package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.Stores;

/**
 * The provider gate's stores, as {@link ProviderGate} keeps them and the HTTP queries and meters read them, and the
 * gate's supplier, which declares them.
 */
public final class ProviderGateStores {
    /** Each scope's circuit, evidence and budgets ({@link ProviderState}), keyed by scope. */
    public static final String STATE_STORE = "provider-state";
    /** The retries a scope's circuit, request budget or retry budget holds, keyed by {@link HeldRetryKey}. */
    public static final String HELD_STORE = "provider-held";

    private ProviderGateStores() {
    }

    /** The gate with its two stores: the scopes' states, then the held retries. */
    static ProcessorSupplier<String, SpecificRecord, String, Object> gate(ProviderGateSettings settings, Fallbacks fallbacks,
                                                                         Map<String, ?> serdeConfig) {
        return new StoreOwningSupplier<>(() -> new ProviderGate(settings, fallbacks),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STATE_STORE), Serdes.String(),
                        AvroSerde.specific(ProviderState.class).configured(serdeConfig, false)),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(HELD_STORE), Serdes.Bytes(), Serdes.ByteArray()));
    }
}
