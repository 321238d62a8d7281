package io.agentoutcomes.app.metrics;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/** Kafka metrics as {@code KafkaStreams#metrics()} lists them, for the counters that read the pipeline's sensors. */
final class SensorMetrics {
    private SensorMetrics() {
    }

    static Map.Entry<MetricName, Metric> metric(String group, String name, Map<String, String> tags, double value) {
        MetricName metricName = new MetricName(name, group, "", tags);
        return Map.entry(metricName, new Metric() {
            @Override
            public MetricName metricName() {
                return metricName;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        });
    }
}
