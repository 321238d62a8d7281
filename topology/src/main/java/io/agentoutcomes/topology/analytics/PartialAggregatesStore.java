package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
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
 * The local partial aggregates: live accumulators in memory (changed in place, the duration sketch kept decoded),
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
    private record Live(AgentMetrics metrics, Histogram sketch) {
    }

    private final KeyValueStore<String, AgentMetrics> inner;
    private final Map<String, Live> live = new HashMap<>();

    private PartialAggregatesStore(KeyValueStore<String, AgentMetrics> inner) {
        this.inner = inner;
    }

    /** A builder for the store under {@code name}, changelogged like any key-value store. */
    public static StoreBuilder<PartialAggregatesStore> builder(String name, Serde<AgentMetrics> serde) {
        StoreBuilder<KeyValueStore<String, AgentMetrics>> inner = Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(name), Serdes.String(), serde).withCachingDisabled();
        return new StoreBuilder<>() {
            @Override
            public StoreBuilder<PartialAggregatesStore> withCachingEnabled() {
                return this;
            }

            @Override
            public StoreBuilder<PartialAggregatesStore> withCachingDisabled() {
                return this;
            }

            @Override
            public StoreBuilder<PartialAggregatesStore> withLoggingEnabled(Map<String, String> config) {
                inner.withLoggingEnabled(config);
                return this;
            }

            @Override
            public StoreBuilder<PartialAggregatesStore> withLoggingDisabled() {
                inner.withLoggingDisabled();
                return this;
            }

            @Override
            public PartialAggregatesStore build() {
                return new PartialAggregatesStore(inner.build());
            }

            @Override
            public Map<String, String> logConfig() {
                return inner.logConfig();
            }

            @Override
            public boolean loggingEnabled() {
                return inner.loggingEnabled();
            }

            @Override
            public String name() {
                return inner.name();
            }
        };
    }

    /** Adds an outcome to the partial of {@code key}. */
    public void add(String key, MetricsAggregator.Key dimensions, ClassifiedOutcome outcome) {
        Live partial = live(key, dimensions);
        MetricsAggregator.addInPlace(partial.metrics(), partial.sketch(), outcome);
    }

    /** Adds a continuation event to the partial of {@code key}. */
    public void add(String key, MetricsAggregator.Key dimensions, ContinuationEvaluated event) {
        MetricsAggregator.addContinuationInPlace(live(key, dimensions).metrics(), event);
    }

    /** Every partial, removed from the store: what a flush forwards. */
    public List<KeyValue<String, AgentMetrics>> drain() {
        writeLive();
        List<KeyValue<String, AgentMetrics>> all = new ArrayList<>();
        try (KeyValueIterator<String, AgentMetrics> iterator = inner.all()) {
            iterator.forEachRemaining(all::add);
        }
        all.forEach(entry -> inner.delete(entry.key));
        return all;
    }

    private Live live(String key, MetricsAggregator.Key dimensions) {
        return live.computeIfAbsent(key, k -> {
            AgentMetrics stored = inner.get(k);
            AgentMetrics metrics = MetricsAggregator.mutableCopy(stored == null ? MetricsAggregator.empty(dimensions) : stored);
            return new Live(metrics, DurationSketch.decode(metrics.getDurationSketch()));
        });
    }

    /** Writes the live accumulators to the store (and its changelog). */
    private void writeLive() {
        for (Map.Entry<String, Live> entry : live.entrySet()) {
            AgentMetrics metrics = entry.getValue().metrics();
            metrics.setDurationSketch(DurationSketch.encode(entry.getValue().sketch()));
            inner.put(entry.getKey(), metrics);
        }
        live.clear();
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
