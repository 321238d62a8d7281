package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.schedule.PendingRetryKey;
import io.agentoutcomes.topology.schedule.RetryScheduler;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;

/**
 * The retry scheduler seen from its store ({@link RetryScheduler#PENDING_STORE}, this instance's partitions):
 * {@code agent_outcomes_retries_pending}, the retries waiting for their due time (RocksDB's estimate of the store's
 * entries), and {@code agent_outcomes_retry_overdue_seconds}, how far past its due time the oldest retry still waiting
 * is (0 when none is due): the scheduler's lateness, which grows when it falls behind. The store keeps retries in due
 * time order, so that is the first entry of each partition. While the store cannot be read (rebalancing, restoring)
 * the gauges keep their last values.
 */
public final class RetryScheduleMeters {
    private final KafkaStreams streams;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong overdueMs = new AtomicLong();

    public RetryScheduleMeters(MeterRegistry registry, KafkaStreams streams) {
        this.streams = streams;
        Gauge.builder("agent_outcomes_retries_pending", pending, AtomicLong::get)
                .description("Retries waiting for their due time in this instance's scheduler store (RocksDB's estimate)")
                .register(registry);
        Gauge.builder("agent_outcomes_retry_overdue_seconds", overdueMs, ms -> ms.get() / 1000.0)
                .description("How far past its due time the oldest retry still waiting is, in seconds (0 when none is due)")
                .register(registry);
    }

    /** Reads the store again; call before a scrape. */
    public void refresh() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return;
        }
        try {
            long entries = streams.store(StoreQueryParameters.fromNameAndType(RetryScheduler.PENDING_STORE,
                    QueryableStoreTypes.<Bytes, byte[]>keyValueStore())).approximateNumEntries();
            StateQueryResult<KeyValueIterator<Bytes, byte[]>> result = streams.query(StateQueryRequest
                    .inStore(RetryScheduler.PENDING_STORE).withQuery(RangeQuery.<Bytes, byte[]>withNoBounds())
                    .requireActive());
            long now = System.currentTimeMillis();
            long oldestOverdue = 0;
            for (QueryResult<KeyValueIterator<Bytes, byte[]>> partition : result.getPartitionResults().values()) {
                if (!partition.isSuccess()) {
                    return;
                }
                try (KeyValueIterator<Bytes, byte[]> due = partition.getResult()) {
                    if (due.hasNext()) {
                        long dueAt = PendingRetryKey.dueAt(due.peekNextKey());
                        oldestOverdue = Math.max(oldestOverdue, now - dueAt);
                    }
                }
            }
            pending.set(entries);
            overdueMs.set(oldestOverdue);
        } catch (InvalidStateStoreException e) {
            // partitions moving: keep the last values
        }
    }
}
