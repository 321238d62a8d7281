package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.topic.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * Folds each job's {@code node_finished} events into its {@link JobReplayState} (the replay rules, see
 * {@link ReplayState}) in the queryable store {@value #STORE}, and publishes every change to the compacted
 * {@code replay-state} topic, keyed by job. Events are partitioned by job, so a job's events and state live in one task; each
 * comes with the classifier's decision on it, so a stop of the pipeline shows in the state. Each state is
 * kept within {@link ReplayLimits} by {@link ReplayBounds}.
 * Beside it, the index {@value #RECENT_STORE} holds one entry per job keyed by {@link #recentKey}, so listing the
 * most recently updated jobs reads as many entries as it lists, not every job.
 */
public final class ReplayTopology {
    /** The store the HTTP queries read. */
    public static final String STORE = "job-replay-state";
    /** The recent-jobs index: {@link #recentKey} to job id, newest update first in key order. */
    public static final String RECENT_STORE = "job-replay-recent";

    private ReplayTopology() {
    }

    /**
     * @param nodeOutcomes the classified outcomes of {@code node_finished} events: each event with the pipeline's
     *                     decision on it, so a node whose retries ran out fails its job. They come from the classifier
     *                     in the same sub-topology, read from {@code node-finished} partitioned by job: a job's events
     *                     and state stay in one task, though the classifier keys outcomes by {@code jobId/nodeId}.
     */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, ClassifiedOutcome> nodeOutcomes,
                             ReplayLimits limits) {
        builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore(STORE),
                Serdes.String(), AvroSerde.specific(JobReplayState.class).configured(topics.serdeConfig, false)));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RECENT_STORE),
                Serdes.String(), Serdes.String()));
        nodeOutcomes
                .process(() -> new ReplayFold(limits), Named.as("replay-fold"), STORE, RECENT_STORE)
                .to(topics.replayState.name(), topics.replayState.produced().withName("write-replay-state"));
    }

    /**
     * The index key of a job: its update time subtracted from {@code Long.MAX_VALUE}, zero-padded, then the job id,
     * so that string order is newest first, then by job id.
     */
    public static String recentKey(Long updatedAt, String jobId) {
        long millis = updatedAt == null ? 0 : Math.max(0, updatedAt);
        return String.format("%019d|%s", Long.MAX_VALUE - millis, jobId);
    }

    public static String jobIdOfRecentKey(String recentKey) {
        return recentKey.substring(20);
    }

}
