package io.agentoutcomes.app.metrics;

import java.util.List;
import org.apache.kafka.common.Metric;

/**
 * How the series of one Kafka metric name across tasks, stores, processor nodes and partitions become one
 * ({@link KafkaMetricsDetail#SUMMARY}), chosen by the metric's name: a {@code -max} the largest, a {@code -min}, a lead or
 * the oldest iterator's age the smallest, an {@code -avg} or a ratio the mean of the parts; everything else (totals,
 * rates, counts, sizes, lags) the sum. Parts without a value yet (NaN) are left out; none with a value: NaN.
 */
enum Fold {
    SUM, MAX, MIN, MEAN;

    static Fold of(String name) {
        if (name.endsWith("-max")) {
            return MAX;
        }
        if (name.endsWith("-min") || name.contains("lead") || name.contains("oldest")) {
            return MIN;
        }
        if (name.endsWith("-avg") || name.contains("ratio")) {
            return MEAN;
        }
        return SUM;
    }

    double of(List<Metric> parts) {
        double folded = Double.NaN;
        int counted = 0;
        for (Metric part : parts) {
            double value = part.metricValue() instanceof Number number ? number.doubleValue() : Double.NaN;
            if (Double.isNaN(value)) {
                continue;
            }
            folded = counted == 0 ? value : switch (this) {
                case SUM, MEAN -> folded + value;
                case MAX -> Math.max(folded, value);
                case MIN -> Math.min(folded, value);
            };
            counted++;
        }
        return this == MEAN && counted > 0 ? folded / counted : folded;
    }
}
