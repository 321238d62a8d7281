package io.agentoutcomes.app.http;

import io.agentoutcomes.app.kafka.RestoreTracker;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.topology.replay.ReplayTopology;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
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

    private static final Pattern CURSOR = Pattern.compile("\\d{19}\\|.+");

    private final KafkaStreams streams;
    private final HostInfo self;
    private final RestoreTracker restores;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public JobQueries(KafkaStreams streams, HostInfo self, RestoreTracker restores) {
        this.streams = streams;
        this.self = self;
        this.restores = restores;
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

    /** A page of the job list: jobs newest update first, and the cursor of the next page (null on the last). */
    public record Page(List<JobReplayState> jobs, String next) {
    }

    /**
     * The most recently updated jobs of every instance after a cursor, newest first: each instance reads at most
     * {@code limit + 1} entries of its recent-jobs index ({@link ReplayTopology#RECENT_STORE}), so the work is
     * bounded by the page, not by the number of jobs. Unavailable unless every instance answers.
     *
     * @param after the {@code next} cursor of the previous page, or null for the first page
     */
    public Page recentJobs(int limit, String after) {
        List<JobReplayState> jobs = new ArrayList<>(localRecentJobs(limit + 1, after));
        List<StreamsMetadata> instances;
        try {
            instances = List.copyOf(streams.streamsMetadataForStore(ReplayTopology.RECENT_STORE));
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("Kafka Streams is " + streams.state() + ": partitions are being assigned");
        }
        for (StreamsMetadata instance : instances) {
            if (!instance.hostInfo().equals(self)) {
                jobs.addAll(remoteRecentJobs(instance.hostInfo(), limit + 1, after));
            }
        }
        jobs.sort(Comparator.comparing(JobQueries::cursorOf));
        if (jobs.size() <= limit) {
            return new Page(jobs, null);
        }
        List<JobReplayState> page = List.copyOf(jobs.subList(0, limit));
        return new Page(page, cursorOf(page.get(limit - 1)));
    }

    /** This instance's most recently updated jobs after a cursor, encoded for another instance's list. */
    public byte[] exportRecentJobs(int limit, String after) {
        return RecordListCodec.encodeList(localRecentJobs(limit, after), JobReplayState.class);
    }

    /** Whether a text is a cursor this service hands out ({@link Page#next}). */
    public static boolean isCursor(String text) {
        return CURSOR.matcher(text).matches();
    }

    private static String cursorOf(JobReplayState job) {
        return ReplayTopology.recentKey(job.getUpdatedAt(), job.getJobId());
    }

    /** Each local partition's index is in key order; its first {@code limit} entries after the cursor suffice. */
    private List<JobReplayState> localRecentJobs(int limit, String after) {
        String notReady = StreamsHealth.of(streams, restores).whyNotReady();
        if (notReady != null) {
            throw new QueryUnavailable(notReady);
        }
        RangeQuery<String, String> range = after == null ? RangeQuery.withNoBounds()
                : RangeQuery.withLowerBound(after + '\0');
        StateQueryResult<KeyValueIterator<String, String>> result = streams.query(
                StateQueryRequest.inStore(ReplayTopology.RECENT_STORE).withQuery(range).requireActive());
        List<String> keys = new ArrayList<>();
        for (QueryResult<KeyValueIterator<String, String>> partition : result.getPartitionResults().values()) {
            if (!partition.isSuccess()) {
                throw new QueryUnavailable("a job partition of this instance is moving: " + partition.getFailureReason());
            }
            try (KeyValueIterator<String, String> entries = partition.getResult()) {
                for (int i = 0; i < limit && entries.hasNext(); i++) {
                    keys.add(entries.next().key);
                }
            }
        }
        keys.sort(null);
        List<JobReplayState> jobs = new ArrayList<>();
        try {
            ReadOnlyKeyValueStore<String, JobReplayState> states = localStore();
            for (String key : keys.subList(0, Math.min(limit, keys.size()))) {
                JobReplayState state = states.get(ReplayTopology.jobIdOfRecentKey(key));
                if (state != null) {
                    jobs.add(state);
                }
            }
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("a job partition of this instance is moving");
        }
        return jobs;
    }

    private List<JobReplayState> remoteRecentJobs(HostInfo host, int limit, String after) {
        String instance = host.host() + ":" + host.port();
        String query = "?limit=" + limit + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8));
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create("http://" + instance
                    + "/jobs/export" + query)).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new QueryUnavailable("instance " + instance + " answered " + response.statusCode()
                        + " (it is rebalancing or restoring)");
            }
            return RecordListCodec.decodeList(response.body(), JobReplayState.class);
        } catch (IOException e) {
            throw new QueryUnavailable("instance " + instance + " did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QueryUnavailable("interrupted");
        }
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
            return new Unavailable("the instance holding the job (" + host.host() + ":" + host.port() + ") did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Unavailable("interrupted");
        }
    }
}
