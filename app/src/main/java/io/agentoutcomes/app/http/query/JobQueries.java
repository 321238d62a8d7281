package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.topology.replay.ReplayStores;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads job replay states through Kafka Streams interactive queries: from this instance's store when it holds the
 * job's partition, else from the instance that does ({@link QueryFanOut}). While a job's partition moves (a
 * rebalance) the answer is {@link JobAnswer.Unavailable}, never a wrong or empty state; a partition this instance
 * keeps answers throughout.
 */
public final class JobQueries {
    private static final Pattern CURSOR = Pattern.compile("\\d{19}\\|.+");
    /** How long a job query waits for its partition, held by this instance, to open again (a task changing threads). */
    static final long OPENING_PATIENCE_MS = 3_000;
    private static final long OPENING_POLL_MS = 50;

    private final QueryFanOut fanOut;

    public JobQueries(QueryFanOut fanOut) {
        this.fanOut = fanOut;
    }

    /**
     * The state of a job.
     *
     * @param path      the request path to forward with (e.g. {@code /jobs/j1/completed})
     * @param forwarded whether another instance forwarded this request (it is then not forwarded again)
     */
    public JobAnswer job(String jobId, String path, boolean forwarded) {
        try {
            QueryFanOut.Owner owner = fanOut.ownerOf(ReplayStores.STORE, jobId, Serdes.String().serializer());
            if (owner.remote().isEmpty()) {
                return local(jobId, owner.partition());
            }
            if (forwarded) {
                return new JobAnswer.Unavailable("the job's partition moved while the request was forwarded");
            }
            return fanOut.forward(owner.remote().get(), path);
        } catch (InvalidStateStoreException e) {
            return new JobAnswer.Unavailable("the job's partition is moving: " + e.getMessage());
        } catch (QueryUnavailable e) {
            return new JobAnswer.Unavailable(e.getMessage());
        }
    }

    /**
     * The job from its own partition of this instance's store: a job not found there is not found, not merely in a
     * partition still opening. A partition this instance holds may be closed for a moment in a rebalance, when Kafka
     * Streams moves its task from one stream thread to another: the query waits up to {@link #OPENING_PATIENCE_MS}
     * for it to open again before answering that it is unavailable.
     */
    private JobAnswer local(String jobId, int partition) {
        long deadline = System.nanoTime() + OPENING_PATIENCE_MS * 1_000_000L;
        while (true) {
            try {
                JobReplayState state = fanOut.<String, JobReplayState>partition(ReplayStores.STORE, partition).get(jobId);
                return state == null ? new JobAnswer.NotFound(jobId) : new JobAnswer.Found(state);
            } catch (QueryUnavailable | InvalidStateStoreException e) {
                if (System.nanoTime() >= deadline) {
                    return new JobAnswer.Unavailable(e.getMessage());
                }
                try {
                    Thread.sleep(OPENING_POLL_MS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return new JobAnswer.Unavailable(e.getMessage());
                }
            }
        }
    }

    /** A page of the job list: jobs newest update first, and the cursor of the next page (null on the last). */
    public record Page(List<JobReplayState> jobs, String next) {
    }

    /**
     * The most recently updated jobs of every instance after a cursor, newest first: each instance reads at most
     * {@code limit + 1} entries of its recent-jobs index ({@link ReplayStores#RECENT_STORE}), so the work is
     * bounded by the page, not by the number of jobs. Unavailable unless every instance answers.
     *
     * @param after the {@code next} cursor of the previous page, or null for the first page
     */
    public Page recentJobs(int limit, String after) {
        String query = "?limit=" + (limit + 1) + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8));
        List<JobReplayState> jobs = new ArrayList<>(fanOut.all(ReplayStores.RECENT_STORE,
                () -> localRecentJobs(limit + 1, after), "/jobs/export" + query, JobReplayState.class));
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
        return ReplayStores.recentKey(job.getUpdatedAt(), job.getJobId());
    }

    /**
     * Each local partition's index is in key order; its first {@code limit} entries after the cursor suffice. Every
     * partition assigned to this instance is read by number, so one still opening makes the answer unavailable
     * instead of leaving its jobs out.
     */
    private List<JobReplayState> localRecentJobs(int limit, String after) {
        fanOut.requireComplete();
        List<String> keys = new ArrayList<>();
        Map<String, Integer> partitionOf = new HashMap<>();
        try {
            for (int partition : fanOut.localPartitions(ReplayStores.RECENT_STORE)) {
                ReadOnlyKeyValueStore<String, String> recent = fanOut.partition(ReplayStores.RECENT_STORE, partition);
                try (KeyValueIterator<String, String> entries = after == null ? recent.all()
                        : recent.range(after + '\0', null)) {
                    for (int i = 0; i < limit && entries.hasNext(); i++) {
                        String key = entries.next().key;
                        keys.add(key);
                        partitionOf.put(key, partition);
                    }
                }
            }
            keys.sort(null);
            List<JobReplayState> jobs = new ArrayList<>();
            Map<Integer, ReadOnlyKeyValueStore<String, JobReplayState>> states = new HashMap<>();
            for (String key : keys.subList(0, Math.min(limit, keys.size()))) {
                JobReplayState state = states.computeIfAbsent(partitionOf.get(key),
                                partition -> fanOut.partition(ReplayStores.STORE, partition))
                        .get(ReplayStores.jobIdOfRecentKey(key));
                if (state != null) {
                    jobs.add(state);
                }
            }
            return jobs;
        } catch (InvalidStateStoreException e) {
            throw new QueryUnavailable("a job partition of this instance is moving");
        }
    }
}
