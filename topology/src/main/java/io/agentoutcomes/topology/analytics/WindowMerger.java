package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.analytics.AnalyticsTopology.WINDOWS_STORE;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.AnalyticsTopology.WindowKey;
import io.agentoutcomes.topology.analytics.AnalyticsTopology.WindowSize;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/** Merges partials into window aggregates, publishes each change, and closes windows after their grace. */
public final class WindowMerger implements Processor<String, AgentMetrics, String, AgentMetrics> {
    private final Duration grace;
    private ProcessorContext<String, AgentMetrics> context;
    private KeyValueStore<String, AgentMetrics> windows;
    private Sensor late;
    /**
     * The latest window start among the partials merged here: the time windows close by. Not the task's stream
     * time, which other inputs of the task (or, in a test driver, the whole topology) can carry past a window
     * whose partials are still on their way. It starts at 0 after a restart, so windows then close late, never
     * early; a window already closed says so in the store.
     */
    private long partialTime;

    WindowMerger(Duration grace) {
        this.grace = grace;
    }

    @Override
    public void init(ProcessorContext<String, AgentMetrics> context) {
        this.context = context;
        this.windows = context.getStateStore(WINDOWS_STORE);
        this.late = context.metrics().addRateTotalSensor("agent-outcomes-analytics", WINDOWS_STORE,
                "late-partials-dropped", Sensor.RecordingLevel.INFO);
        context.schedule(Duration.ofSeconds(1), PunctuationType.STREAM_TIME, streamTime -> closeWindows(partialTime));
    }

    @Override
    public void process(Record<String, AgentMetrics> record) {
        WindowKey key = WindowKey.decode(record.key());
        partialTime = Math.max(partialTime, record.timestamp());
        AgentMetrics current = windows.get(record.key());
        if (key.end() != null && (current != null && current.getWindowClosed()
                || current == null && closed(key, partialTime))) {
            late.record();
            return;
        }
        AgentMetrics merged = current == null ? MetricsAggregator.withPercentiles(record.value())
                : MetricsAggregator.mergeWithPercentiles(current, record.value());
        if (key.end() != null) {
            merged.setWindowStart(key.start());
            merged.setWindowEnd(key.end().toEpochMilli());
        }
        windows.put(record.key(), merged);
        context.forward(record.withValue(merged));
    }

    private boolean closed(WindowKey key, long streamTime) {
        return key.end().plus(grace).toEpochMilli() <= streamTime;
    }

    /**
     * Publishes every window past its grace (by the partials' time) once more, marked closed, and keeps it (closed) for queries until it
     * is older than its size's retention.
     */
    private void closeWindows(long now) {
        List<KeyValue<String, AgentMetrics>> toClose = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        for (WindowSize size : List.of(WindowSize.ONE_MINUTE, WindowSize.ONE_HOUR)) {
            try (KeyValueIterator<String, AgentMetrics> range = windows.range(size.label() + "|", size.label() + "|~")) {
                range.forEachRemaining(entry -> {
                    WindowKey key = WindowKey.decode(entry.key);
                    if (key.end().plus(size.retention()).toEpochMilli() <= now) {
                        expired.add(entry.key);
                    } else if (!entry.value.getWindowClosed() && closed(key, now)) {
                        toClose.add(entry);
                    }
                });
            }
        }
        for (KeyValue<String, AgentMetrics> window : toClose) {
            AgentMetrics closed = AgentMetrics.newBuilder(window.value).setWindowClosed(true).build();
            windows.put(window.key, closed);
            context.forward(new Record<>(window.key, closed, now));
        }
        expired.forEach(windows::delete);
    }
}
