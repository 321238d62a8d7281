package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import java.time.Duration;
import java.util.Set;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Folds classified outcomes and continuation events into local partials per minute and key ({@link PartialAggregatesStore}),
 * and forwards every flush interval those and the hour and running-total partials made from them.
 */
public final class PreAggregator implements Processor<String, Object, String, AgentMetrics> {
    /** The task's local partial aggregates ({@link PartialAggregatesStore}). */
    public static final String PARTIALS_STORE = "analytics-partials";
    private final Duration flushInterval;
    private final Set<Dimension> keyed;
    private final DimensionCap cap;
    private ProcessorContext<String, AgentMetrics> context;
    private PartialAggregatesStore partials;
    /**
     * The latest timestamp aggregated since this task started, at most the wall clock's time when it was aggregated
     * (-1: none yet), for the progress records.
     */
    private long aggregatedUpTo = -1;
    /** Whether anything was aggregated since the last flush. */
    private boolean aggregatedSinceFlush;
    /** When this task started (wall clock). */
    private long startedAt;

    PreAggregator(AnalyticsSettings settings) {
        this.flushInterval = settings.flushInterval();
        this.keyed = settings.dimensions();
        this.cap = new DimensionCap(keyed, settings.maxDimensionValues());
    }

    /** The pre-aggregator with its store of partials. */
    static ProcessorSupplier<String, Object, String, AgentMetrics> supplier(AnalyticsSettings settings, Serde<AgentMetrics> serde) {
        return new StoreOwningSupplier<>(() -> new PreAggregator(settings), PartialAggregatesStore.builder(PARTIALS_STORE, serde));
    }

    @Override
    public void init(ProcessorContext<String, AgentMetrics> context) {
        this.context = context;
        this.partials = context.getStateStore(PARTIALS_STORE);
        this.startedAt = context.currentSystemTimeMs();
        PunctuationWatch.schedule(Punctuators.ANALYTICS_PRE_AGGREGATOR, context, flushInterval, this::flush);
    }

    @Override
    public void process(Record<String, Object> record) {
        if (record.value() instanceof ClassifiedOutcome outcome) {
            partials.add(WindowSize.ONE_MINUTE.start(record.timestamp()),
                    cap.admit(record.timestamp(), Dimensions.of(outcome, keyed)), outcome);
            aggregated(record.timestamp());
        } else if (record.value() instanceof ContinuationEvaluated event && !event.getShouldContinue()) {
            partials.add(WindowSize.ONE_MINUTE.start(record.timestamp()), Dimensions.ofAgent(event.getAgentId(), keyed),
                    event);
            aggregated(record.timestamp());
        }
    }

    /**
     * This task's progress moves to {@code timestamp}, but never past the wall clock: a record stamped ahead (within
     * the input's clock skew) is aggregated in its own window, but must not make this task report, for every other
     * source's records, that windows up to its time can close.
     */
    private void aggregated(long timestamp) {
        aggregatedUpTo = Math.max(aggregatedUpTo, Math.min(timestamp, context.currentSystemTimeMs()));
        aggregatedSinceFlush = true;
    }

    /**
     * Forwards every partial stamped with its own window's start (running totals with 0), not with this task's
     * stream time: the merger closes windows by the time of the partials it sees, and a window whose records
     * arrived in time must not look late because the same flush also carries a later window. Then this task's
     * progress ({@link SourceProgress}), to every merge task.
     */
    private void flush(long now) {
        for (KeyValue<String, AgentMetrics> partial : partials.drain()) {
            context.forward(new Record<>(partial.key, partial.value, WindowKey.decode(partial.key).start()));
        }
        SourceProgress.State state = aggregatedSinceFlush ? SourceProgress.State.BUSY
                : aggregatedUpTo < 0 && now - startedAt < SourceProgress.STARTING_FOR_MS ? SourceProgress.State.STARTING
                : SourceProgress.State.IDLE;
        aggregatedSinceFlush = false;
        String key = new SourceProgress.Report(context.taskId().partition(), state, aggregatedUpTo).key();
        context.forward(new Record<>(key, null, Math.max(0, aggregatedUpTo)));
    }
}
