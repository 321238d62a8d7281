package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.ingest.InvalidInputException;
import io.agentoutcomes.topology.ingest.OtlpSpansProcessor;
import io.agentoutcomes.topology.ingest.RejectionReason;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code agent_outcomes_rejected_input_total{reason}}: JSON input that ingestion refused, by reason
 * ({@code unparseable-json}, {@code missing-field}, ...: every {@link RejectionReason}), one counter family
 * whose every reason is there from the start, at 0. Read from the ingestion's Kafka Streams sensors
 * ({@code rejected-<reason>-total} of {@code stream-agent-outcomes-ingest-metrics}, per stream thread and input topic,
 * summed); as they are Kafka Streams' own, a record processed again after a crash counts again. Kafka Streams'
 * binder would show each reason as a family of its own, and only after its first rejection: {@link #binderCopies()}
 * leaves those out. Beside them, {@code agent_outcomes_otlp_spans_skipped_total}: spans of the OTLP input that are no
 * GenAI span completing work (docs/ingestion.md, "OTLP"), neither refused nor results.
 */
public final class RejectionMeters {
    static final String NAME = "agent_outcomes_rejected_input";
    static final String SENSOR_GROUP = "stream-" + InvalidInputException.METRICS_SCOPE + "-metrics";
    static final String SKIPPED_NAME = "agent_outcomes_otlp_spans_skipped";
    private static final String BINDER_PREFIX = "kafka.stream.agent.outcomes.ingest.rejected.";
    private static final String SKIPPED_BINDER_PREFIX = "kafka.stream.agent.outcomes.ingest.otlp.spans.skipped";

    private RejectionMeters() {
    }

    /**
     * Registers the counters, each reading the sensors of its reason in Kafka Streams' metrics. Micrometer holds a
     * function counter's object weakly: the object is {@code streams}, which the service holds.
     */
    public static void register(MeterRegistry registry, KafkaStreams streams) {
        for (RejectionReason kind : RejectionReason.values()) {
            String sensor = kind.sensor() + "-total";
            FunctionCounter.builder(NAME, streams, s -> StreamsSensors.sum(s.metrics(), SENSOR_GROUP, sensor)).tag("reason", kind.label())
                    .description("JSON input refused by ingestion, by reason (to rejected-input)").register(registry);
        }
        FunctionCounter.builder(SKIPPED_NAME, streams, s -> StreamsSensors.sum(s.metrics(), SENSOR_GROUP,
                        OtlpSpansProcessor.SKIPPED + "-total"))
                .description("OTLP spans skipped: not a GenAI span of an operation that completes work").register(registry);
    }

    /** Leaves out Kafka Streams' binder's copies of the rejection sensors, one family per reason, and of the skipped spans'. */
    public static MeterFilter binderCopies() {
        return MeterFilter.deny(id -> id.getName().startsWith(BINDER_PREFIX) || id.getName().startsWith(SKIPPED_BINDER_PREFIX));
    }
}
