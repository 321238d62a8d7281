package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.ingest.EventTimeBound;
import io.agentoutcomes.topology.ingest.InvalidInputException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code agent_outcomes_input_timestamps_clamped_total}: input records whose timestamp was more than
 * {@code input.max.clock.skew.ms} ahead of the wall clock when read, and which went on at the wall clock's time
 * ({@link EventTimeBound}; docs/ingestion.md). Read from the ingestion's Kafka Streams sensors
 * ({@code timestamps-clamped-total} of {@code stream-agent-outcomes-ingest-metrics}, per stream thread and input topic,
 * summed); like the rejection counters, a record processed again after a crash counts again. There from the start, at 0.
 */
public final class ClockSkewMeters {
    static final String NAME = "agent_outcomes_input_timestamps_clamped";
    static final String SENSOR_GROUP = "stream-" + InvalidInputException.METRICS_SCOPE + "-metrics";
    private static final String BINDER_PREFIX = "kafka.stream.agent.outcomes.ingest.timestamps.clamped";

    private ClockSkewMeters() {
    }

    /**
     * Registers the counter over {@code streams}' metrics. Micrometer holds a function counter's object weakly, so the
     * object is {@code streams}, which the service holds: a method reference held by nothing else would be collected,
     * and the counter would read 0 from then on.
     */
    public static void register(MeterRegistry registry, KafkaStreams streams) {
        register(registry, streams, KafkaStreams::metrics);
    }

    static <T> void register(MeterRegistry registry, T source, Function<T, Map<MetricName, ? extends Metric>> metrics) {
        FunctionCounter.builder(NAME, source, s -> StreamsSensors.sum(metrics.apply(s), SENSOR_GROUP, EventTimeBound.SENSOR + "-total"))
                .description("Input records stamped further ahead of the wall clock than input.max.clock.skew.ms, read at the wall clock's time")
                .register(registry);
    }

    /** Leaves out Kafka Streams' binder's copies of the sensor. */
    public static MeterFilter binderCopies() {
        return MeterFilter.denyNameStartsWith(BINDER_PREFIX);
    }
}
