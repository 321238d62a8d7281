package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.BudgetStatus;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/** Keeps the global store of budgets' status as {@code budget-status} says: the latest per key, a tombstone deletes. */
final class BudgetStatusUpdater implements Processor<String, BudgetStatus, Void, Void> {
    private KeyValueStore<String, BudgetStatus> store;

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(BudgetStores.STATUS_STORE);
    }

    @Override
    public void process(Record<String, BudgetStatus> record) {
        if (record.value() == null) {
            store.delete(record.key());
        } else {
            store.put(record.key(), record.value());
        }
    }
}
