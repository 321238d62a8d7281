package io.agentoutcomes.app.metrics;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/** The pipeline's own Kafka Streams sensors, read back for the counters built on them. */
final class StreamsSensors {
    private StreamsSensors() {
    }

    /** The sum of every series of sensor metric {@code name} in {@code group} (per stream thread, task or topic). */
    static double sum(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        double sum = 0;
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (metric.getKey().group().equals(group) && metric.getKey().name().equals(name)
                    && metric.getValue().metricValue() instanceof Number value) {
                sum += value.doubleValue();
            }
        }
        return sum;
    }
}
