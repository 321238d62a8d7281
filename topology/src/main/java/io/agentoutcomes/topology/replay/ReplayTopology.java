package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Intake;
import io.agentoutcomes.topology.Topics;
import java.time.Instant;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Folds each job's {@code node_finished} events into its {@link JobReplayState} (seed 001's replay rules, see
 * {@link ReplayState}) in the queryable store {@value #STORE}, and publishes every change to the compacted
 * {@code replay-state} topic. Events are keyed by job, so a job's events and state live in one partition. Each state is
 * kept within {@link ReplayLimits} by {@link ReplayBounds}.
 */
public final class ReplayTopology {
    /** The store the HTTP queries read. */
    public static final String STORE = "job-replay-state";

    private ReplayTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, Intake intake, ReplayLimits limits) {
        builder.addStateStore(Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore(STORE),
                Serdes.String(), AvroSerde.specific(JobReplayState.class).configured(topics.serdeConfig, false)));
        intake.nodeFinished()
                .processValues(() -> new Fold(limits), Named.as("replay-fold"), STORE)
                .to(topics.replayState.name(), topics.replayState.produced().withName("write-replay-state"));
    }

    /** Applies each event to its job's state and forwards the new state. */
    private static final class Fold implements FixedKeyProcessor<String, NodeFinished, JobReplayState> {
        private final ReplayLimits limits;
        private FixedKeyProcessorContext<String, JobReplayState> context;
        private TimestampedKeyValueStore<String, JobReplayState> states;

        Fold(ReplayLimits limits) {
            this.limits = limits;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, JobReplayState> context) {
            this.context = context;
            this.states = context.getStateStore(STORE);
        }

        @Override
        public void process(FixedKeyRecord<String, NodeFinished> record) {
            NodeFinished event = record.value();
            if (event == null) {
                return;
            }
            String jobId = event.getJobId();
            ValueAndTimestamp<JobReplayState> existing = states.get(jobId);
            JobReplayState before = existing == null ? ReplayState.empty(jobId) : existing.value();
            JobReplayState after = ReplayState.apply(before, event, Instant.ofEpochMilli(record.timestamp()));
            if (after.equals(before)) {
                return;
            }
            // A job too large even with its payloads summarized throws: the event goes to rejected-input with the reason.
            after = ReplayBounds.fit(after, limits);
            states.put(jobId, ValueAndTimestamp.make(after, record.timestamp()));
            context.forward(record.withValue(after));
        }
    }
}
