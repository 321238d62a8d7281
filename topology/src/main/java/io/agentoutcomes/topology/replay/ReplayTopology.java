package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Topics;
import java.time.Instant;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Folds each job's {@code node_finished} events into its {@link JobReplayState} (seed 001's replay rules, see
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
                .process(() -> new Fold(limits), Named.as("replay-fold"), STORE, RECENT_STORE)
                .to(topics.replayState.name(), topics.replayState.produced().withName("write-replay-state"));
    }

    /**
     * The index key of a job: its update time subtracted from {@code Long.MAX_VALUE}, zero-padded, then the job id,
     * so that string order is newest first, then by job id.
     */
    public static String recentKey(Instant updatedAt, String jobId) {
        long millis = updatedAt == null ? 0 : Math.max(0, updatedAt.toEpochMilli());
        return String.format("%019d|%s", Long.MAX_VALUE - millis, jobId);
    }

    public static String jobIdOfRecentKey(String recentKey) {
        return recentKey.substring(20);
    }

    /** Applies each event to its job's state, forwards the new state and keeps the job's index entry current. */
    private static final class Fold implements Processor<String, ClassifiedOutcome, String, JobReplayState> {
        private final ReplayLimits limits;
        private ProcessorContext<String, JobReplayState> context;
        private TimestampedKeyValueStore<String, JobReplayState> states;
        private KeyValueStore<String, String> recent;
        private boolean indexChecked;

        Fold(ReplayLimits limits) {
            this.limits = limits;
        }

        @Override
        public void init(ProcessorContext<String, JobReplayState> context) {
            this.context = context;
            this.states = context.getStateStore(STORE);
            this.recent = context.getStateStore(RECENT_STORE);
        }

        @Override
        public void process(Record<String, ClassifiedOutcome> record) {
            ClassifiedOutcome outcome = record.value();
            NodeFinished event = outcome == null ? null : outcome.getNodeFinished();
            if (event == null) {
                return;
            }
            Decision decision = outcome.getDecision();
            StopReason stop = decision != null && decision.getHandling() == ErrorHandling.STOP ? decision.getStopReason() : null;
            indexExistingStates();
            String jobId = event.getJobId();
            ValueAndTimestamp<JobReplayState> existing = states.get(jobId);
            JobReplayState before = existing == null ? ReplayState.empty(jobId) : existing.value();
            JobReplayState after = ReplayState.apply(before, event, Instant.ofEpochMilli(record.timestamp()), stop);
            if (after.equals(before)) {
                return;
            }
            // A job too large even with its payloads summarized throws: the event goes to rejected-input with the reason.
            after = ReplayBounds.fit(after, limits);
            states.put(jobId, ValueAndTimestamp.make(after, record.timestamp()));
            if (existing == null || !Objects.equals(before.getUpdatedAt(), after.getUpdatedAt())) {
                if (existing != null) {
                    recent.delete(recentKey(before.getUpdatedAt(), jobId));
                }
                recent.put(recentKey(after.getUpdatedAt(), jobId), jobId);
            }
            context.forward(record.withKey(jobId).withValue(after));
        }

        /**
         * States kept before the index existed get their entries once, at the first event after an upgrade (a
         * record is being processed then, which the index's changelog needs).
         */
        private void indexExistingStates() {
            if (indexChecked) {
                return;
            }
            indexChecked = true;
            try (KeyValueIterator<String, String> entries = recent.all()) {
                if (entries.hasNext()) {
                    return;
                }
            }
            try (KeyValueIterator<String, ValueAndTimestamp<JobReplayState>> all = states.all()) {
                all.forEachRemaining(entry -> recent.put(recentKey(entry.value.value().getUpdatedAt(), entry.key), entry.key));
            }
        }
    }
}
