package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.pricing.PriceResults;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The pricing step's counters (docs/analytics.md, "Prices"), read from its Kafka Streams sensors
 * ({@code cost-computed-total}, {@code cost-unpriced-total}, {@code cost-mismatch-total} of
 * {@code stream-agent-outcomes-pricing-metrics}, summed over threads): {@code agent_outcomes_cost_computed_total}
 * (results priced from the table), {@code agent_outcomes_cost_unpriced_total} (tokens, no cost, a model the table
 * does not know) and {@code agent_outcomes_cost_mismatch_total} (a reported cost beyond the tolerance of the
 * computed one). Like the rejection counters, a record processed again after a crash counts again.
 */
public final class PricingMeters {
    static final String SENSOR_GROUP = "stream-" + PriceResults.METRICS_SCOPE + "-metrics";
    private static final String BINDER_PREFIX = "kafka.stream.agent.outcomes.pricing.";
    private static final Map<String, String> COUNTERS = Map.of(
            "agent_outcomes_cost_computed", PriceResults.COMPUTED,
            "agent_outcomes_cost_unpriced", PriceResults.UNPRICED,
            "agent_outcomes_cost_mismatch", PriceResults.MISMATCH);
    private static final Map<String, String> DESCRIPTIONS = Map.of(
            PriceResults.COMPUTED, "Results with tokens and no cost, priced from the price table",
            PriceResults.UNPRICED, "Results with tokens and no cost whose model the price table does not know",
            PriceResults.MISMATCH, "Reported costs further from the computed cost than pricing.mismatch.tolerance");

    private PricingMeters() {
    }

    /**
     * Registers the counters over the instance's Kafka Streams metrics. Micrometer holds a function counter's object
     * weakly, so the object is {@code streams}, which the service holds (a method reference held by nothing else was
     * collected, and the counters read nothing from then on).
     */
    public static void register(MeterRegistry registry, KafkaStreams streams) {
        register(registry, streams, KafkaStreams::metrics);
    }

    static <T> void register(MeterRegistry registry, T source, Function<T, Map<MetricName, ? extends Metric>> metrics) {
        COUNTERS.forEach((name, sensor) -> FunctionCounter.builder(name, source,
                        s -> StreamsSensors.sum(metrics.apply(s), SENSOR_GROUP, sensor + "-total"))
                .description(DESCRIPTIONS.get(sensor)).register(registry));
    }

    /** Leaves out Kafka Streams' binder's copies of the pricing sensors. */
    public static MeterFilter binderCopies() {
        return MeterFilter.denyNameStartsWith(BINDER_PREFIX);
    }
}
