package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Cost, token and retry analytics per agent, model and provider, in tumbling windows of 1 minute and 1 hour and as
 * running totals. Aggregated locally first: each task folds its outcomes into partial aggregates in memory
 * ({@link PartialAggregatesStore}, written to its changelog inside each commit's transaction), and flushes them every
 * {@code flushInterval}, each stamped with its window's start, through one repartition topic, keyed by window,
 * agent, model and provider, to the task that owns that key; so the repartition costs a write and a read per key and
 * flush, not per record. There the partials are merged into the window's aggregate, which is published to
 * {@code agent-metrics-1m} / {@code agent-metrics-1h} on every change and once more, marked closed, when stream time
 * passes its end plus the grace period; a partial for a window already closed is dropped and counted. The store
 * {@value #WINDOWS_STORE} keeps running totals (size {@code total}) and closed windows for a while (1m windows two
 * hours, 1h windows seven days), for queries and the dashboard.
 */
public final class AnalyticsTopology {
    public static final String PARTIALS_STORE = "analytics-partials";
    public static final String WINDOWS_STORE = "analytics-windows";

    /** The aggregation windows: their name (in keys and topics) and length; TOTAL has none. */
    public enum WindowSize {
        ONE_MINUTE("1m", Duration.ofMinutes(1), Duration.ofHours(2)),
        ONE_HOUR("1h", Duration.ofHours(1), Duration.ofDays(7)),
        TOTAL("total", null, null);

        private final String label;
        private final Duration length;
        /** How long a closed window stays in the store for queries and the dashboard. */
        private final Duration retention;

        WindowSize(String label, Duration length, Duration retention) {
            this.label = label;
            this.length = length;
            this.retention = retention;
        }

        public String label() {
            return label;
        }

        public static WindowSize of(String label) {
            for (WindowSize size : values()) {
                if (size.label.equals(label)) {
                    return size;
                }
            }
            throw new IllegalArgumentException("no window size " + label);
        }

        long start(long timestampMs) {
            return length == null ? 0 : timestampMs - Math.floorMod(timestampMs, length.toMillis());
        }
    }

    /** The key of one aggregate: window size and start, agent, model, provider; "|"-separated, start zero-padded. */
    public record WindowKey(WindowSize size, long start, MetricsAggregator.Key key) {
        public String encode() {
            return String.join("|", size.label, String.format("%013d", start), key.agentId(), key.model(), key.provider());
        }

        public static WindowKey decode(String text) {
            String[] parts = text.split("\\|", 5);
            return new WindowKey(WindowSize.of(parts[0]), Long.parseLong(parts[1]),
                    new MetricsAggregator.Key(parts[2], parts[3], parts[4]));
        }

        Instant end() {
            return size.length == null ? null : Instant.ofEpochMilli(start).plus(size.length);
        }
    }

    private AnalyticsTopology() {
    }

    /**
     * @param outcomes      every classified outcome, as classification emits them
     * @param flushInterval how often local partial aggregates are sent on (wall clock)
     * @param grace         how long after a window's end late outcomes still update it
     */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, ClassifiedOutcome> outcomes,
                             KStream<String, ContinuationEvaluated> continuations, Duration flushInterval, Duration grace) {
        Serde<AgentMetrics> serde = AvroSerde.specific(AgentMetrics.class).configured(topics.serdeConfig, false);
        builder.addStateStore(PartialAggregatesStore.builder(PARTIALS_STORE, serde));
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(WINDOWS_STORE), Serdes.String(), serde)
                .withCachingEnabled());
        KStream<String, Object> events = outcomes.mapValues(outcome -> (Object) outcome, Named.as("analytics-outcomes"))
                .merge(continuations.mapValues(event -> (Object) event, Named.as("analytics-continuations")),
                        Named.as("analytics-events"));
        KStream<String, AgentMetrics> windows = events
                .process(() -> new LocalPreAggregator(flushInterval), Named.as("analytics-pre-aggregate"), PARTIALS_STORE)
                .repartition(Repartitioned.with(Serdes.String(), serde).withName("analytics-partials"))
                .process(() -> new WindowMerger(grace), Named.as("analytics-merge"), WINDOWS_STORE);
        windows.filter((key, metrics) -> metrics.getWindowStart() != null
                        && WindowKey.decode(key).size() == WindowSize.ONE_MINUTE, Named.as("analytics-1m"))
                .to(topics.agentMetrics1m.name(), topics.agentMetrics1m.produced().withName("write-agent-metrics-1m"));
        windows.filter((key, metrics) -> metrics.getWindowStart() != null
                        && WindowKey.decode(key).size() == WindowSize.ONE_HOUR, Named.as("analytics-1h"))
                .to(topics.agentMetrics1h.name(), topics.agentMetrics1h.produced().withName("write-agent-metrics-1h"));
    }

    /** Folds events into local partials, per window and key, and forwards them all every flush interval. */
    private static final class LocalPreAggregator implements Processor<String, Object, String, AgentMetrics> {
        private final Duration flushInterval;
        private ProcessorContext<String, AgentMetrics> context;
        private PartialAggregatesStore partials;

        LocalPreAggregator(Duration flushInterval) {
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
                        forEachWindow(record.timestamp(), key, windowKey -> partials.add(windowKey, key, outcome)));
            } else if (record.value() instanceof ContinuationEvaluated event && !event.getShouldContinue()) {
                MetricsAggregator.Key key = new MetricsAggregator.Key(event.getAgentId(), MetricsAggregator.UNKNOWN,
                        MetricsAggregator.UNKNOWN);
                forEachWindow(record.timestamp(), key, windowKey -> partials.add(windowKey, key, event));
            }
        }

        /** The encoded key of every window (1m, 1h, total) an event at {@code timestamp} falls in. */
        private static void forEachWindow(long timestamp, MetricsAggregator.Key key, Consumer<String> action) {
            for (WindowSize size : WindowSize.values()) {
                action.accept(new WindowKey(size, size.start(timestamp), key).encode());
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

    /** Merges partials into window aggregates, publishes each change, and closes windows after their grace. */
    private static final class WindowMerger implements Processor<String, AgentMetrics, String, AgentMetrics> {
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
            AgentMetrics merged = current == null ? record.value() : MetricsAggregator.merge(current, record.value());
            if (key.end() != null) {
                merged.setWindowStart(Instant.ofEpochMilli(key.start()));
                merged.setWindowEnd(key.end());
            }
            merged = MetricsAggregator.withPercentiles(merged);
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
                try (KeyValueIterator<String, AgentMetrics> range = windows.range(size.label + "|", size.label + "|~")) {
                    range.forEachRemaining(entry -> {
                        WindowKey key = WindowKey.decode(entry.key);
                        if (key.end().plus(size.retention).toEpochMilli() <= now) {
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
}
