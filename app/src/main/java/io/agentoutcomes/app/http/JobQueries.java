package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.topology.replay.ReplayTopology;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads job replay states through Kafka Streams interactive queries: from this instance's store when it holds the
 * job's partition, else from the instance that does, over HTTP. While partitions move (a rebalance) the answer is
 * {@link Unavailable}, never a wrong or empty state.
 */
public final class JobQueries {
    /** The query parameter that marks a request forwarded by another instance: answer locally or not at all. */
    public static final String FORWARDED = "forwarded";

    /** What a query found. */
    public sealed interface Answer {
    }

    /** The job's state, found here. */
    public record Found(JobReplayState state) implements Answer {
    }

    /** No instance has the job. */
    public record NotFound(String jobId) implements Answer {
    }

    /** The answer of the instance that holds the job, relayed as it came. */
    public record Relayed(int status, String body) implements Answer {
    }

    /** No answer now (a rebalance, or the holding instance unreachable): retry shortly. */
    public record Unavailable(String reason) implements Answer {
    }

    private final KafkaStreams streams;
    private final HostInfo self;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public JobQueries(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    /**
     * The state of a job.
     *
     * @param path      the request path to forward with (e.g. {@code /jobs/j1/completed})
     * @param forwarded whether another instance forwarded this request (it is then not forwarded again)
     */
    public Answer job(String jobId, String path, boolean forwarded) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return new Unavailable("Kafka Streams is " + streams.state() + ": partitions are being assigned");
        }
        KeyQueryMetadata metadata = streams.queryMetadataForKey(ReplayTopology.STORE, jobId, Serdes.String().serializer());
        if (metadata == null || metadata.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            return new Unavailable("no instance holds the job's partition yet");
        }
        if (metadata.activeHost().equals(self)) {
            try {
                JobReplayState state = localStore().get(jobId);
                return state == null ? new NotFound(jobId) : new Found(state);
            } catch (InvalidStateStoreException e) {
                return new Unavailable("the job's partition is moving: " + e.getMessage());
            }
        }
        if (forwarded) {
            return new Unavailable("the job's partition moved while the request was forwarded");
        }
        return forward(metadata.activeHost(), path);
    }

    /** Recent jobs on every instance, newest first. */
    public List<JobReplayState> recentJobs(int limit, boolean localOnly) {
        List<JobReplayState> jobs = new ArrayList<>(localJobs());
        if (!localOnly) {
            for (StreamsMetadata instance : streams.streamsMetadataForStore(ReplayTopology.STORE)) {
                if (!instance.hostInfo().equals(self)) {
                    remoteJobs(instance.hostInfo()).ifPresent(jobs::addAll);
                }
            }
        }
        jobs.sort(Comparator.comparing((JobReplayState j) -> j.getUpdatedAt() == null ? java.time.Instant.EPOCH : j.getUpdatedAt())
                .reversed().thenComparing(JobReplayState::getJobId));
        return jobs.size() > limit ? jobs.subList(0, limit) : jobs;
    }

    private List<JobReplayState> localJobs() {
        List<JobReplayState> jobs = new ArrayList<>();
        try (KeyValueIterator<String, JobReplayState> all = localStore().all()) {
            while (all.hasNext()) {
                KeyValue<String, JobReplayState> entry = all.next();
                jobs.add(entry.value);
            }
        } catch (InvalidStateStoreException e) {
            // partitions moving: list what other instances have
        }
        return jobs;
    }

    private Optional<List<JobReplayState>> remoteJobs(HostInfo host) {
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create("http://" + host.host() + ":"
                    + host.port() + "/jobs/export")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
            return response.statusCode() == 200 ? Optional.of(RecordListCodec.decodeList(response.body(), JobReplayState.class)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** This instance's jobs, encoded for another instance's list. */
    public byte[] exportLocalJobs() {
        return RecordListCodec.encodeList(localJobs(), JobReplayState.class);
    }

    private ReadOnlyKeyValueStore<String, JobReplayState> localStore() {
        return streams.store(StoreQueryParameters.fromNameAndType(ReplayTopology.STORE, QueryableStoreTypes.keyValueStore()));
    }

    private Answer forward(HostInfo host, String path) {
        String separator = path.contains("?") ? "&" : "?";
        URI uri = URI.create("http://" + host.host() + ":" + host.port() + path + separator + FORWARDED + "=true");
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Relayed(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Unavailable("the instance holding the job (" + host.host() + ":" + host.port() + ") did not answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unavailable("interrupted");
        }
    }
}
