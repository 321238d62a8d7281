package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.topology.topic.Topics;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * Folds each job's {@code node_finished} events into its {@link JobReplayState} (the replay rules, see
 * {@link ReplayState}) in the queryable store {@value ReplayStores#STORE}, and publishes every change to the compacted
 * {@code replay-state} topic, keyed by job. Events are partitioned by job, so a job's events and state live in one task; each
 * comes with the classifier's decision on it, so a stop of the pipeline shows in the state. Each state is
 * kept within {@link ReplayLimits} by {@link ReplayBounds}.
 * Beside it, the index {@value ReplayStores#RECENT_STORE} holds one entry per job keyed by
 * {@link ReplayStores#recentKey}, so listing the most recently updated jobs reads as many entries as it lists.
 */
public final class ReplayTopology {
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
        nodeOutcomes
                .process(ReplayFold.supplier(limits, topics.serdeConfig), Named.as("replay-fold"))
                .to(topics.replayState.name(), topics.replayState.produced().withName("write-replay-state"));
    }
}
