package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.serde.AvroSerde;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/** The budget stage's stores: the keeper's two, and the global store classification reads. */
public final class BudgetStores {
    /** Spend per budget and value, current and previous period ({@link BudgetState}). */
    public static final String SPEND_STORE = "budget-spend";
    /** Alerts sent per budget and threshold (keys {@code <budget>U+001F<threshold>}), for {@code /metrics}. */
    public static final String ALERT_COUNTS_STORE = "budget-alert-counts";
    /** The global store of {@code budget-status}, read by classification. */
    public static final String STATUS_STORE = "budget-status";

    private BudgetStores() {
    }

    static StoreBuilder<KeyValueStore<String, BudgetState>> spend(Map<String, ?> serdeConfig) {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SPEND_STORE), Serdes.String(),
                AvroSerde.specific(BudgetState.class).configured(serdeConfig, false));
    }

    static StoreBuilder<KeyValueStore<String, Long>> alertCounts() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(ALERT_COUNTS_STORE), Serdes.String(), Serdes.Long());
    }

    /** In memory: the topic is compacted and small (one record per budget value exhausted), read again at start. */
    static StoreBuilder<KeyValueStore<String, BudgetStatus>> status(Serde<BudgetStatus> serde) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STATUS_STORE), Serdes.String(), serde)
                .withLoggingDisabled();
    }
}
