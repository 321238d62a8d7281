package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.topology.ingest.EventTimeBound;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** The clock-skew counter sums the ingestion's clamp sensors of every thread and input topic, and nothing else. */
class ClockSkewMetersTest {
    private static Map.Entry<MetricName, Metric> metric(String group, String name, String topic, double value) {
        return SensorMetrics.metric(group, name, Map.of("thread-id", "t1", "agent-outcomes-ingest-id", topic), value);
    }

    @Test
    void theCounterSumsTheClampSensorsOfEveryInputTopic() {
        Map<MetricName, Metric> metrics = Map.ofEntries(
                metric(ClockSkewMeters.SENSOR_GROUP, EventTimeBound.SENSOR + "-total", "agent-results", 2),
                metric(ClockSkewMeters.SENSOR_GROUP, EventTimeBound.SENSOR + "-total", "agent-results-json", 3),
                metric(ClockSkewMeters.SENSOR_GROUP, EventTimeBound.SENSOR + "-rate", "agent-results", 7),
                metric(ClockSkewMeters.SENSOR_GROUP, "rejected-too-large-total", "agent-results", 11),
                metric("stream-other-metrics", EventTimeBound.SENSOR + "-total", "agent-results", 100));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ClockSkewMeters.register(registry, metrics, m -> m);
        assertThat(registry.get(ClockSkewMeters.NAME).functionCounter().count()).isEqualTo(5.0);
    }
}
