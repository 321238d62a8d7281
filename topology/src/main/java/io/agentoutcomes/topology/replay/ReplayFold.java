package io.agentoutcomes.topology.replay;

import static io.agentoutcomes.topology.replay.ReplayStores.RECENT_STORE;
import static io.agentoutcomes.topology.replay.ReplayStores.STORE;
import static io.agentoutcomes.topology.replay.ReplayStores.recentKey;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/** Applies each event to its job's state, forwards the new state and keeps the job's index entry current. */
public final class ReplayFold implements Processor<String, ClassifiedOutcome, String, JobReplayState> {
    private final ReplayLimits limits;
    private ProcessorContext<String, JobReplayState> context;
    private TimestampedKeyValueStore<String, JobReplayState> states;
    private KeyValueStore<String, String> recent;
    private boolean indexChecked;

    ReplayFold(ReplayLimits limits) {
        this.limits = limits;
    }

    /** The fold with its two stores ({@link ReplayStores}). */
    static ProcessorSupplier<String, ClassifiedOutcome, String, JobReplayState> supplier(ReplayLimits limits,
                                                                                        Map<String, ?> serdeConfig) {
        return new StoreOwningSupplier<>(() -> new ReplayFold(limits), ReplayStores.states(serdeConfig), ReplayStores.recent());
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
