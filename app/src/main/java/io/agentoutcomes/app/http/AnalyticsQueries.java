package io.agentoutcomes.app.http;

import io.agentoutcomes.app.kafka.RestoreTracker;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.AnalyticsTopology;
import io.agentoutcomes.topology.analytics.AnalyticsTopology.WindowSize;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the analytics aggregates of every instance (interactive queries on {@link AnalyticsTopology#WINDOWS_STORE},
 * other instances' over HTTP) and groups them by agent, model or provider. An answer is complete or not given: while
 * this instance or another is rebalancing or restoring, or another does not answer, {@link QueryUnavailable}.
 */
public final class AnalyticsQueries {
    /** A dimension to group by. */
    public enum By {
        AGENT(AgentMetrics::getAgentId), MODEL(AgentMetrics::getModel), PROVIDER(AgentMetrics::getProvider);

        final Function<AgentMetrics, String> value;

        By(Function<AgentMetrics, String> value) {
            this.value = value;
        }
    }

    /** One group's aggregates, one per window start (a single one, without start, for totals), oldest first. */
    public record Series(String name, List<AgentMetrics> points) {
    }

    private final KafkaStreams streams;
    private final HostInfo self;
    private final RestoreTracker restores;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public AnalyticsQueries(KafkaStreams streams, HostInfo self, RestoreTracker restores) {
        this.streams = streams;
        this.self = self;
        this.restores = restores;
    }

    /** Every instance's aggregates of a window size, grouped by a dimension and merged within each window. */
    public List<Series> series(WindowSize size, By by) {
        List<AgentMetrics> all = new ArrayList<>(readyLocal(size));
        List<StreamsMetadata> instances;
        try {
            instances = List.copyOf(streams.streamsMetadataForStore(AnalyticsTopology.WINDOWS_STORE));
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("Kafka Streams is " + streams.state() + ": partitions are being assigned");
        }
        for (StreamsMetadata instance : instances) {
            if (!instance.hostInfo().equals(self)) {
                all.addAll(remote(instance.hostInfo(), size));
            }
        }
        Map<String, Map<Instant, AgentMetrics>> grouped = new TreeMap<>();
        for (AgentMetrics metrics : all) {
            String name = by.value.apply(metrics);
            Instant start = metrics.getWindowStart() == null ? Instant.EPOCH : metrics.getWindowStart();
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
        String notReady = StreamsHealth.of(streams, restores).whyNotReady();
        if (notReady != null) {
            throw new QueryUnavailable(notReady);
        }
        return local(size);
    }

    private List<AgentMetrics> local(WindowSize size) {
        List<AgentMetrics> found = new ArrayList<>();
        try {
            ReadOnlyKeyValueStore<String, AgentMetrics> store = streams.store(StoreQueryParameters.fromNameAndType(
                    AnalyticsTopology.WINDOWS_STORE, QueryableStoreTypes.keyValueStore()));
            try (KeyValueIterator<String, AgentMetrics> range = store.range(size.label() + "|", size.label() + "|~")) {
                range.forEachRemaining(entry -> found.add(entry.value));
            }
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("the analytics partitions of this instance are moving");
        }
        found.sort(Comparator.comparing(m -> m.getWindowStart() == null ? Instant.EPOCH : m.getWindowStart()));
        return found;
    }

    private List<AgentMetrics> remote(HostInfo host, WindowSize size) {
        String instance = host.host() + ":" + host.port();
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create("http://" + instance
                    + "/analytics/export?window=" + size.label())).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new QueryUnavailable("instance " + instance + " answered " + response.statusCode()
                        + " (it is rebalancing or restoring)");
            }
            return RecordListCodec.decodeList(response.body(), AgentMetrics.class);
        } catch (IOException e) {
            throw new QueryUnavailable("instance " + instance + " did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryUnavailable("interrupted");
        }
    }
}
