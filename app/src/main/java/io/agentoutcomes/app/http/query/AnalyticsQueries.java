package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import io.agentoutcomes.topology.analytics.WindowKey;
import io.agentoutcomes.topology.analytics.WindowMerger;
import io.agentoutcomes.topology.analytics.WindowSize;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the analytics aggregates of every instance (interactive queries on {@link WindowMerger#WINDOWS_STORE},
 * other instances' through {@link QueryFanOut}) and groups them by a {@link Dimension}. An answer is complete or not given: while
 * this instance or another is rebalancing or restoring, or another does not answer, {@link QueryUnavailable}.
 */
public final class AnalyticsQueries {
    /** One group's aggregates, one per window start (a single one, without start, for totals), oldest first. */
    public record Series(String name, List<AgentMetrics> points) {
    }

    /** The group {@link #top} merges the groups past its limit into. */
    public static final String OTHER = "_other";

    private final QueryFanOut fanOut;
    private final Set<Dimension> keyed;

    /** @param keyed what keys the windows ({@code analytics.dimensions}): what they can be grouped by */
    public AnalyticsQueries(QueryFanOut fanOut, Set<Dimension> keyed) {
        this.fanOut = fanOut;
        this.keyed = Set.copyOf(keyed);
    }

    /** Whether the aggregates can be grouped by a dimension: only by one that keys the windows. */
    public boolean groupsBy(Dimension dimension) {
        return keyed.contains(dimension);
    }

    /** Every instance's aggregates of a window size, grouped by a dimension and merged within each window. */
    public List<Series> series(WindowSize size, Dimension by) {
        return group(all(size), by);
    }

    /** Every instance's aggregates of a window size, as they are kept (one per window and key). */
    public List<AgentMetrics> all(WindowSize size) {
        return fanOut.all(WindowMerger.WINDOWS_STORE, () -> local(size), "/analytics/export?window=" + size.label(),
                AgentMetrics.class);
    }

    /** Aggregates grouped by a dimension and merged within each window. */
    public static List<Series> group(List<AgentMetrics> all, Dimension by) {
        Map<String, Map<Long, AgentMetrics>> grouped = new TreeMap<>();
        for (AgentMetrics metrics : all) {
            // an aggregate written before the dimension keyed the windows counts as not saying it
            String name = Objects.requireNonNullElse(by.of(metrics), Dimensions.UNKNOWN);
            long start = metrics.getWindowStart() == null ? 0 : metrics.getWindowStart();
            grouped.computeIfAbsent(name, n -> new TreeMap<>()).merge(start, metrics, AnalyticsQueries::merged);
        }
        List<Series> series = new ArrayList<>();
        grouped.forEach((name, points) -> series.add(new Series(name, List.copyOf(points.values()))));
        return series;
    }

    /**
     * The {@code limit} groups of largest cost (over all their windows; equal costs by name), then, when there were
     * more, one named {@value #OTHER} that merges the rest within each window: an answer's size is bounded by the limit,
     * however many agents there are, and its figures still add up to the whole.
     */
    public static List<Series> top(List<Series> all, int limit) {
        if (all.size() <= limit) {
            return all;
        }
        List<Series> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparing(AnalyticsQueries::cost, Comparator.<BigDecimal>reverseOrder())
                .thenComparing(Series::name));
        List<Series> kept = new ArrayList<>(sorted.subList(0, limit));
        Map<Long, AgentMetrics> rest = new TreeMap<>();
        for (Series series : sorted.subList(limit, sorted.size())) {
            for (AgentMetrics point : series.points()) {
                rest.merge(point.getWindowStart() == null ? 0 : point.getWindowStart(), point, AnalyticsQueries::merged);
            }
        }
        kept.add(new Series(OTHER, List.copyOf(rest.values())));
        return kept;
    }

    private static BigDecimal cost(Series series) {
        BigDecimal total = BigDecimal.ZERO;
        for (AgentMetrics point : series.points()) {
            total = total.add(point.getCostTotal());
        }
        return total;
    }

    private static AgentMetrics merged(AgentMetrics a, AgentMetrics b) {
        AgentMetrics merged = MetricsAggregator.withPercentiles(MetricsAggregator.merge(a, b));
        merged.setWindowClosed(a.getWindowClosed() && b.getWindowClosed());
        return merged;
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
        fanOut.requireComplete();
        return local(size);
    }

    /** Every partition assigned to this instance, read by number: one still opening makes the answer unavailable. */
    private List<AgentMetrics> local(WindowSize size) {
        List<AgentMetrics> found = new ArrayList<>();
        try {
            for (int partition : fanOut.localPartitions(WindowMerger.WINDOWS_STORE)) {
                ReadOnlyKeyValueStore<String, AgentMetrics> store = fanOut.partition(WindowMerger.WINDOWS_STORE, partition);
                try (KeyValueIterator<String, AgentMetrics> range = store.prefixScan(WindowKey.prefix(size), new StringSerializer())) {
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
