package io.agentoutcomes.app.config;

import io.agentoutcomes.app.metrics.KafkaMetricsDetail;
import java.util.Arrays;
import org.apache.kafka.common.config.ConfigDef.Type;

/** What {@code GET /metrics} exports (docs/operations.md, "Metrics"), a group of {@link AgentOutcomesConfig}. */
public final class MetricsConfig {
    public static final String METRICS_KAFKA_DETAIL = "metrics.kafka.detail";

    private static final String METRICS = "Metrics";

    private MetricsConfig() {
    }

    static Declarations declare(Declarations declarations) {
        return declarations.group(METRICS)
                .define(METRICS_KAFKA_DETAIL, Type.STRING, KafkaMetricsDetail.SUMMARY.value(),
                        Check.oneOf(Arrays.stream(KafkaMetricsDetail.values()).map(KafkaMetricsDetail::value).toList()),
                        "How finely /metrics exports Kafka Streams' metrics. summary: Kafka Streams' own one series per stream thread and topic, its clients' one per client and broker, a metric's series across tasks, stores, processor nodes, partitions (and the clients' topics) folded into one (sum; largest for -max; smallest for -min; mean for -avg); full: every series Kafka keeps, several times the size.");
    }

    static KafkaMetricsDetail kafkaDetail(AgentOutcomesConfig config) {
        return KafkaMetricsDetail.of(config.getString(METRICS_KAFKA_DETAIL).trim());
    }
}
