package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.topology.pricing.PriceResults;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The pricing counters sum the pricing sensors of every stream thread, and nothing else. */
class PricingMetersTest {
    private static Map.Entry<MetricName, Metric> metric(String group, String name, String thread, double value) {
        return SensorMetrics.metric(group, name, Map.of("thread-id", thread), value);
    }

    @Test
    void countersSumThePricingSensorsOfEveryThread() {
        Map<MetricName, Metric> metrics = Map.ofEntries(
                metric(PricingMeters.SENSOR_GROUP, PriceResults.MISMATCH + "-total", "t1", 2),
                metric(PricingMeters.SENSOR_GROUP, PriceResults.MISMATCH + "-total", "t2", 3),
                metric(PricingMeters.SENSOR_GROUP, PriceResults.MISMATCH + "-rate", "t1", 7),
                metric(PricingMeters.SENSOR_GROUP, PriceResults.COMPUTED + "-total", "t1", 11),
                metric("stream-other-metrics", PriceResults.COMPUTED + "-total", "t1", 100));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PricingMeters.register(registry, metrics, m -> m);
        assertThat(registry.get("agent_outcomes_cost_mismatch").functionCounter().count()).isEqualTo(5.0);
        assertThat(registry.get("agent_outcomes_cost_computed").functionCounter().count()).isEqualTo(11.0);
        assertThat(registry.get("agent_outcomes_cost_unpriced").functionCounter().count()).isEqualTo(0.0);
    }

    @Test
    void countersStillReadTheSensorsAfterAGarbageCollection() throws InterruptedException {
        Map<MetricName, Metric> metrics = Map.ofEntries(metric(PricingMeters.SENSOR_GROUP, PriceResults.COMPUTED + "-total", "t1", 11));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // The object the counters read is held by the test, as the service holds its KafkaStreams; before, the counters
        // read through a method reference held by nothing, collected at the first collection.
        PricingMeters.register(registry, metrics, m -> m);
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(registry.get("agent_outcomes_cost_computed").functionCounter().count()).isEqualTo(11.0);
    }
}
