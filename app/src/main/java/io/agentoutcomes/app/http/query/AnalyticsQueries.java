package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.AnalyticsTopology;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import io.agentoutcomes.topology.analytics.WindowSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the analytics aggregates of every instance (interactive queries on {@link AnalyticsTopology#WINDOWS_STORE},
 * other instances' through {@link QueryFanOut}) and groups them by a {@link Dimension}. An answer is complete or not given: while
 * this instance or another is rebalancing or restoring, or another does not answer, {@link QueryUnavailable}.
 */
public final class AnalyticsQueries {
    /** One group's aggregates, one per window start (a single one, without start, for totals), oldest first. */
    public record Series(String name, List<AgentMetrics> points) {
    }

    private final QueryFanOut fanOut;

    public AnalyticsQueries(QueryFanOut fanOut) {
        this.fanOut = fanOut;
    }

    /** Every instance's aggregates of a window size, grouped by a dimension and merged within each window. */
    public List<Series> series(WindowSize size, Dimension by) {
        List<AgentMetrics> all = fanOut.all(AnalyticsTopology.WINDOWS_STORE, () -> local(size),
                "/analytics/export?window=" + size.label(), AgentMetrics.class);
        Map<String, Map<Long, AgentMetrics>> grouped = new TreeMap<>();
        for (AgentMetrics metrics : all) {
            String name = by.of(metrics);
            long start = metrics.getWindowStart() == null ? 0 : metrics.getWindowStart();
            grouped.computeIfAbsent(name, n -> new TreeMap<>()).merge(start, metrics, (a, b) -> {
                AgentMetrics merged = MetricsAggregator.withPercentiles(MetricsAggregator.merge(a, b));
                merged.setWindowClosed(a.getWindowClosed() && b.getWindowClosed());
                return merged;
            });
        }
        List<Series> series = new ArrayList<>();
        grouped.forEach((name, points) -> series.add(new Series(name, List.copyOf(points.values()))));
        return series;
    }

    /** This instance's running totals, one per agent, model and provider (for its domain meters); unavailable unless complete. */
    public List<AgentMetrics> localTotals() {
        return readyLocal(WindowSize.TOTAL);
    }

    /** This instance's aggregates of a window size, encoded for another instance; unavailable unless complete. */
    public byte[] export(WindowSize size) {
        return RecordListCodec.encodeList(readyLocal(size), AgentMetrics.class);
    }

    private List<AgentMetrics> readyLocal(WindowSize size) {
        fanOut.requireReady();
        return local(size);
    }

    /** Every partition assigned to this instance, read by number: one still opening makes the answer unavailable. */
    private List<AgentMetrics> local(WindowSize size) {
        List<AgentMetrics> found = new ArrayList<>();
        try {
            for (int partition : fanOut.localPartitions(AnalyticsTopology.WINDOWS_STORE)) {
                ReadOnlyKeyValueStore<String, AgentMetrics> store = fanOut.partition(AnalyticsTopology.WINDOWS_STORE, partition);
                try (KeyValueIterator<String, AgentMetrics> range = store.prefixScan(size.keyPrefix(), new StringSerializer())) {
                    range.forEachRemaining(entry -> found.add(entry.value));
                }
            }
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("the analytics partitions of this instance are moving");
        }
        found.sort(Comparator.comparingLong(m -> m.getWindowStart() == null ? 0 : m.getWindowStart()));
        return found;
    }
}
