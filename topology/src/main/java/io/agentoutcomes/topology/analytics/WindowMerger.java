package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Merges partials into window aggregates, publishes each change, and closes windows after their grace, by the progress
 * of every source of partials ({@link SourceProgress}).
 */
public final class WindowMerger implements Processor<String, AgentMetrics, String, AgentMetrics> {
    /** Running totals and closed windows, keyed by {@link WindowKey}: the store the queries and the dashboard read. */
    public static final String WINDOWS_STORE = "analytics-windows";
    /** How far each source of partials has got ({@link SourceProgress}). */
    public static final String SOURCES_STORE = "analytics-sources";
    /** Windows end on whole minutes: which are closed changes only when the close time passes one. */
    private static final long MINUTE_MS = 60_000;
    private final Duration grace;
    private ProcessorContext<String, AgentMetrics> context;
    private KeyValueStore<String, AgentMetrics> windows;
    private Sensor late;
    private KeyValueStore<Integer, Long> sourceTimes;
    /** How far each source of partials has got; windows close by the slowest that may still send. */
    private final SourceProgress progress = new SourceProgress();
    /**
     * The time windows are closed up to (end plus grace at or before it): only ever grows. It starts from the sources'
     * stored times after a restart, so windows then close late, never early; a window already closed says so in the
     * store.
     */
    private long closedUpTo = Long.MIN_VALUE;

    WindowMerger(Duration grace) {
        this.grace = grace;
    }

    /** The merger with its stores of windows (cached) and of the sources' progress (in memory, changelogged). */
    static ProcessorSupplier<String, AgentMetrics, String, AgentMetrics> supplier(Duration grace, Serde<AgentMetrics> serde) {
        return new StoreOwningSupplier<>(() -> new WindowMerger(grace),
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(WINDOWS_STORE), Serdes.String(), serde)
                        .withCachingEnabled(),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(SOURCES_STORE), Serdes.Integer(), Serdes.Long()));
    }

    @Override
    public void init(ProcessorContext<String, AgentMetrics> context) {
        this.context = context;
        this.windows = context.getStateStore(WINDOWS_STORE);
        this.late = context.metrics().addRateTotalSensor("agent-outcomes-analytics", WINDOWS_STORE,
                "late-partials-dropped", Sensor.RecordingLevel.INFO);
        this.sourceTimes = context.getStateStore(SOURCES_STORE);
        try (KeyValueIterator<Integer, Long> all = sourceTimes.all()) {
            all.forEachRemaining(source -> progress.restore(source.key, source.value));
        }
        closedUpTo = progress.closeTime();
    }

    @Override
    public void process(Record<String, AgentMetrics> record) {
        if (SourceProgress.isProgress(record.key())) {
            SourceProgress.Report report = SourceProgress.parse(record.key());
            long advanced = progress.update(report);
            if (advanced >= 0) {
                sourceTimes.put(report.source(), advanced);
            }
            advance(progress.closeTime());
            return;
        }
        WindowKey key = WindowKey.decode(record.key());
        AgentMetrics current = windows.get(record.key());
        if (key.end() != null && (current != null && current.getWindowClosed()
                || current == null && closed(key, closedUpTo))) {
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

    private boolean closed(WindowKey key, long time) {
        return key.end().toEpochMilli() + grace.toMillis() <= time;
    }

    /**
     * Moves the close time on; when it passes a minute boundary (where windows end), closes the windows past their
     * grace and forgets those past their retention.
     */
    private void advance(long closeTime) {
        if (closeTime <= closedUpTo) {
            return;
        }
        long before = closedUpTo;
        closedUpTo = closeTime;
        if (before == Long.MIN_VALUE || Math.floorDiv(before - grace.toMillis(), MINUTE_MS)
                != Math.floorDiv(closeTime - grace.toMillis(), MINUTE_MS)) {
            closeWindows(closeTime);
        }
    }

    /**
     * Publishes every window past its grace (by the sources' progress) once more, marked closed, and keeps it (closed)
     * for queries until it is older than its size's retention.
     */
    private void closeWindows(long now) {
        List<KeyValue<String, AgentMetrics>> toClose = new ArrayList<>();
        List<String> expired = new ArrayList<>();
        for (WindowSize size : List.of(WindowSize.ONE_MINUTE, WindowSize.ONE_HOUR)) {
            try (KeyValueIterator<String, AgentMetrics> range = windows.prefixScan(WindowKey.prefix(size), new StringSerializer())) {
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
