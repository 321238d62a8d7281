package io.agentoutcomes.app.http.query;

import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.http.health.StreamsHealth;
import io.agentoutcomes.app.kafka.StoreTopics;
import io.agentoutcomes.app.kafka.StreamsProgress;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Interactive queries across the instances of the application, for every store: the answer is complete or not given
 * ({@link QueryUnavailable}), never part of the data. Two shapes:
 * <ul>
 *   <li>{@link #all}: this instance's records plus those of every other instance holding a partition of the store,
 *       fetched from its {@code .../export} route (Avro, {@link RecordListCodec}); unavailable unless every instance
 *       answers 200;</li>
 *   <li>{@link #ownerOf} and {@link #forward}: the instance holding a key, and the request relayed to it once (marked
 *       {@value #FORWARDED}, so it is not relayed again while partitions move).</li>
 * </ul>
 */
public final class QueryFanOut {
    /** The query parameter that marks a request forwarded by another instance: answer locally or not at all. */
    public static final String FORWARDED = "forwarded";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Where a key lives: the instance holding its partition (empty: this one), and the partition. */
    public record Owner(Optional<HostInfo> remote, int partition) {
    }

    private final KafkaStreams streams;
    private final HostInfo self;
    private final StreamsProgress progress;
    private final Map<String, Set<String>> storeTopics;
    private final HttpSecurity security;
    private final HttpClient http;

    /**
     * @param storeTopics each store's source topics ({@link StoreTopics})
     * @param security    how the other instances are called: their scheme, what is trusted, the credentials presented
     */
    public QueryFanOut(KafkaStreams streams, HostInfo self, StreamsProgress progress, Map<String, Set<String>> storeTopics,
                       HttpSecurity security) {
        this.streams = streams;
        this.self = self;
        this.progress = progress;
        this.storeTopics = storeTopics;
        this.security = security;
        this.http = security.client(Duration.ofSeconds(2));
    }


    /**
     * Unless this instance is RUNNING with every store restored, so that every partition of a store is at its owner,
     * {@link QueryUnavailable} saying why.
     */
    public void requireComplete() {
        String notReady = StreamsHealth.of(streams, progress).whyIncomplete();
        if (notReady != null) {
            throw new QueryUnavailable(notReady);
        }
    }

    /**
     * Every instance's records of a store: {@code local} (read after {@link #requireComplete}) and, from each other
     * instance holding a partition of {@code store}, the records {@code GET exportPathAndQuery} answers.
     */
    public <T extends SpecificRecord> List<T> all(String store, Supplier<List<T>> local, String exportPathAndQuery,
                                                  Class<T> type) {
        requireComplete();
        List<T> records = new ArrayList<>(local.get());
        List<StreamsMetadata> instances;
        try {
            instances = List.copyOf(streams.streamsMetadataForStore(store));
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("Kafka Streams is " + streams.state() + ": partitions are being assigned");
        }
        for (StreamsMetadata instance : instances) {
            if (!instance.hostInfo().equals(self)) {
                records.addAll(fetch(instance.hostInfo(), exportPathAndQuery, type));
            }
        }
        return records;
    }

    /**
     * The instance holding a key of a store (empty when it is this one) and the key's partition; {@link QueryUnavailable}
     * while no instance holds the key's partition. While partitions move (REBALANCING) the last assignment still names
     * the owners: a partition this instance keeps answers throughout (its task stays open through a cooperative
     * rebalance), one it is losing or gaining is not open for queries and answers 503 ({@link #partition}).
     */
    public <K> Owner ownerOf(String store, K key, Serializer<K> keySerializer) {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING && state != KafkaStreams.State.REBALANCING) {
            throw new QueryUnavailable("Kafka Streams is " + state + ": partitions are being assigned");
        }
        KeyQueryMetadata metadata = streams.queryMetadataForKey(store, key, keySerializer);
        if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            throw new QueryUnavailable("no instance holds the partition yet");
        }
        return new Owner(metadata.activeHost().equals(self) ? Optional.empty() : Optional.of(metadata.activeHost()),
                metadata.partition());
    }

    /**
     * The partitions of a store the group assigned to this instance, as active ones. A partition just assigned is in
     * it before its task is open for queries: reading each of these partitions by number ({@link #partition}) fails
     * until then, where reading the store as a whole would leave the partition out.
     */
    public Set<Integer> localPartitions(String store) {
        Set<String> topics = storeTopics.getOrDefault(store, Set.of());
        Set<Integer> partitions = new TreeSet<>();
        try {
            for (StreamsMetadata instance : streams.streamsMetadataForStore(store)) {
                if (instance.hostInfo().equals(self)) {
                    instance.topicPartitions().stream().filter(tp -> topics.contains(tp.topic()))
                            .forEach(tp -> partitions.add(tp.partition()));
                }
            }
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("Kafka Streams is " + streams.state() + ": partitions are being assigned");
        }
        return partitions;
    }

    /**
     * Every value of a key-value store in this instance's partitions; {@link QueryUnavailable}, saying {@code moving},
     * while one of them is not open here.
     */
    public <V> List<V> localValues(String store, String moving) {
        List<V> found = new ArrayList<>();
        try {
            for (int partition : localPartitions(store)) {
                ReadOnlyKeyValueStore<Object, V> values = partition(store, partition);
                try (KeyValueIterator<Object, V> all = values.all()) {
                    all.forEachRemaining(entry -> found.add(entry.value));
                }
            }
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable(moving);
        }
        return found;
    }

    /** One partition of a key-value store of this instance; {@link QueryUnavailable} until its task is open here. */
    public <K, V> ReadOnlyKeyValueStore<K, V> partition(String store, int partition) {
        ReadOnlyKeyValueStore<K, V> view = streams.store(StoreQueryParameters.fromNameAndType(store,
                QueryableStoreTypes.<K, V>keyValueStore()).withPartition(partition));
        try {
            view.approximateNumEntries();
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("partition " + partition + " of " + store + " is not open on this instance yet");
        }
        return view;
    }

    /** Relays a request (path and query) to another instance, marked {@value #FORWARDED}. */
    public JobAnswer.Relayed forward(HostInfo host, String pathAndQuery) {
        String separator = pathAndQuery.contains("?") ? "&" : "?";
        try {
            HttpResponse<String> response = http.send(request(host, pathAndQuery + separator + FORWARDED + "=true"),
                    HttpResponse.BodyHandlers.ofString());
            return new JobAnswer.Relayed(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new QueryUnavailable("the instance holding it (" + host.host() + ":" + host.port() + ") did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryUnavailable("interrupted");
        }
    }

    private <T extends SpecificRecord> List<T> fetch(HostInfo host, String pathAndQuery, Class<T> type) {
        String instance = host.host() + ":" + host.port();
        try {
            HttpResponse<byte[]> response = http.send(request(host, pathAndQuery), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new QueryUnavailable("instance " + instance + " answered " + response.statusCode()
                        + " (it is rebalancing or restoring)");
            }
            return RecordListCodec.decodeList(response.body(), type);
        } catch (IOException e) {
            throw new QueryUnavailable("instance " + instance + " did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryUnavailable("interrupted");
        }
    }

    /** A request to another instance, with the credentials it asks of everyone. */
    private HttpRequest request(HostInfo host, String pathAndQuery) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(security.scheme() + "://" + host.host() + ":"
                + host.port() + pathAndQuery)).timeout(TIMEOUT);
        security.clientAuthorization().ifPresent(value -> request.header("Authorization", value));
        return request.build();
    }
}
