package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.topology.state.WrappingStoreBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * The local partial aggregates, per minute and key: live accumulators in memory (changed in place, the duration sketch
 * kept decoded),
 * written to a changelogged key-value store when Kafka Streams flushes the caches of a task, which it does as it
 * prepares a commit, before the transaction commits. So a record costs an in-memory update, not a read, copy and
 * write of an aggregate; and exactly-once holds: whatever a commit covers has been written to the changelog inside
 * that commit's transaction, and whatever was not yet written was not committed either and is processed again after
 * a crash.
 * <p>
 * Kafka Streams calls {@code flush()} and {@code commit()} of a store only after the transaction has committed; writing
 * the accumulators there put them into the next transaction, which a crash aborts (issue 10: analytics short by 4-6 %
 * after kill -9). Only a store that is a {@link CachedStateStore}, Kafka Streams' interface of its own record caches,
 * is flushed before: so this store is one, with no flush listener (nothing is forwarded on flush).
 */
public final class PartialAggregatesStore implements StateStore, CachedStateStore<String, AgentMetrics> {
    /** A minute's partial of one key, as the live map holds it: no string is made per record. */
    private record MinuteKey(long start, Dimensions key) {
        String encode() {
            return new WindowKey(WindowSize.ONE_MINUTE, start, key).encode();
        }
    }

    /** A live accumulator and its store key. */
    private static final class Live {
        final String key;
        final LivePartial partial;
        boolean dirty;

        Live(String key, LivePartial partial) {
            this.key = key;
            this.partial = partial;
        }
    }

    private final KeyValueStore<String, AgentMetrics> inner;
    /** The accumulators touched since the last drain; written to the store when a commit is prepared, kept live. */
    private final Map<MinuteKey, Live> live = new HashMap<>();

    private PartialAggregatesStore(KeyValueStore<String, AgentMetrics> inner) {
        this.inner = inner;
    }

    /** A builder for the store under {@code name}, changelogged like any key-value store. */
    public static StoreBuilder<PartialAggregatesStore> builder(String name, Serde<AgentMetrics> serde) {
        return new WrappingStoreBuilder<>(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(),
                serde), PartialAggregatesStore::new);
    }

    /** Adds an outcome to the partial of its key's minute starting at {@code minuteStart}. */
    public void add(long minuteStart, Dimensions dimensions, ClassifiedOutcome outcome) {
        Live partial = live(minuteStart, dimensions);
        partial.partial.add(outcome);
        partial.dirty = true;
    }

    /** Adds a continuation event to the partial of its key's minute starting at {@code minuteStart}. */
    public void add(long minuteStart, Dimensions dimensions, ContinuationEvaluated event) {
        Live partial = live(minuteStart, dimensions);
        partial.partial.addContinuation(event);
        partial.dirty = true;
    }

    /**
     * Every partial, removed from the store: what a flush forwards. The store holds minute partials only (a record
     * updates one accumulator, not three); the hour and running-total partials are their sums, made here, once per
     * flush and key.
     */
    public List<KeyValue<String, AgentMetrics>> drain() {
        writeLive();
        live.clear();
        List<KeyValue<String, AgentMetrics>> minutes = new ArrayList<>();
        try (KeyValueIterator<String, AgentMetrics> iterator = inner.all()) {
            iterator.forEachRemaining(minutes::add);
        }
        minutes.forEach(entry -> inner.delete(entry.key));
        Map<String, AgentMetrics> sums = new LinkedHashMap<>();
        for (KeyValue<String, AgentMetrics> minute : minutes) {
            WindowKey key = WindowKey.decode(minute.key);
            for (WindowSize size : List.of(WindowSize.ONE_HOUR, WindowSize.TOTAL)) {
                sums.merge(new WindowKey(size, size.start(key.start()), key.dimensions()).encode(),
                        minute.value, MetricsAggregator::merge);
            }
        }
        List<KeyValue<String, AgentMetrics>> all = new ArrayList<>(minutes);
        sums.forEach((key, metrics) -> all.add(KeyValue.pair(key, metrics)));
        return all;
    }

    /** The key's live accumulator: a get, and only on a miss a lambda-free put (no capturing lambda per record). */
    private Live live(long minuteStart, Dimensions dimensions) {
        MinuteKey minute = new MinuteKey(minuteStart, dimensions);
        Live found = live.get(minute);
        if (found == null) {
            String key = minute.encode();
            AgentMetrics stored = inner.get(key);
            found = new Live(key, stored == null ? LivePartial.of(dimensions) : LivePartial.from(dimensions, stored));
            live.put(minute, found);
        }
        return found;
    }

    /** Writes the accumulators changed since the last write to the store (and its changelog). */
    private void writeLive() {
        for (Live partial : live.values()) {
            if (partial.dirty) {
                inner.put(partial.key, partial.partial.toMetrics());
                partial.dirty = false;
            }
        }
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        inner.init(context, root);
    }

    /** Called as a commit is prepared, before its transaction commits: the accumulators go into that transaction. */
    @Override
    public void flushCache() {
        writeLive();
    }

    /** Called when a task's state is recycled: what is only in memory was never committed. */
    @Override
    public void clearCache() {
        live.clear();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<String, AgentMetrics> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
        writeLive();
        inner.flush();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
        writeLive();
        inner.commit(changelogOffsets);
    }

    @Override
    public void close() {
        live.clear();
        inner.close();
    }

    @Override
    public boolean persistent() {
        return inner.persistent();
    }

    @Override
    public boolean isOpen() {
        return inner.isOpen();
    }
}
