package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.analytics.AnalyticsTopology.PARTIALS_STORE;
import io.agentoutcomes.topology.analytics.AnalyticsTopology.WindowKey;
import io.agentoutcomes.topology.analytics.AnalyticsTopology.WindowSize;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import java.time.Duration;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Folds classified outcomes and continuation events into local partials per minute and key ({@link PartialAggregatesStore}),
 * and forwards every flush interval those and the hour and running-total partials made from them.
 */
public final class PreAggregator implements Processor<String, Object, String, AgentMetrics> {
    private final Duration flushInterval;
    private ProcessorContext<String, AgentMetrics> context;
    private PartialAggregatesStore partials;

    PreAggregator(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    @Override
    public void init(ProcessorContext<String, AgentMetrics> context) {
        this.context = context;
        this.partials = context.getStateStore(PARTIALS_STORE);
        context.schedule(flushInterval, PunctuationType.WALL_CLOCK_TIME, now -> flush());
    }

    @Override
    public void process(Record<String, Object> record) {
        if (record.value() instanceof ClassifiedOutcome outcome) {
            MetricsAggregator.Key.of(outcome).ifPresent(key ->
                    partials.add(WindowSize.ONE_MINUTE.start(record.timestamp()), key, outcome));
        } else if (record.value() instanceof ContinuationEvaluated event && !event.getShouldContinue()) {
            MetricsAggregator.Key key = new MetricsAggregator.Key(event.getAgentId(), MetricsAggregator.UNKNOWN,
                    MetricsAggregator.UNKNOWN);
            partials.add(WindowSize.ONE_MINUTE.start(record.timestamp()), key, event);
        }
    }

    /**
     * Forwards every partial stamped with its own window's start (running totals with 0), not with this task's
     * stream time: the merger closes windows by the time of the partials it sees, and a window whose records
     * arrived in time must not look late because the same flush also carries a later window.
     */
    private void flush() {
        for (KeyValue<String, AgentMetrics> partial : partials.drain()) {
            context.forward(new Record<>(partial.key, partial.value, WindowKey.decode(partial.key).start()));
        }
    }
}
