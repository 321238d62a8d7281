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

/**
 * The local partial aggregates: live accumulators in memory (changed in place, the duration sketch kept decoded),
 * written to a changelogged key-value store only when Kafka Streams flushes or commits the store, which it does
 * before committing the task. So a record costs an in-memory update, not a read, copy and write of an aggregate;
 * and exactly-once holds: whatever was not yet written to the store was not committed either, and is processed again
 * after a failure.
 */
public final class PartialAggregatesStore implements StateStore {
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
