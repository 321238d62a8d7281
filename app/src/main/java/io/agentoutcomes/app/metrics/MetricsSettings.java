package io.agentoutcomes.app.metrics;

import java.util.Optional;

/**
 * What the service exports: how finely {@code GET /metrics} shows Kafka Streams' metrics, and the OTLP push of the GenAI
 * conventions' metrics, if any ({@code metrics.otlp.url} set).
 */
public record MetricsSettings(KafkaMetricsDetail kafkaDetail, Optional<OtlpSettings> otlp) {
    /** The defaults: summary, no push. */
    public static MetricsSettings defaults() {
        return new MetricsSettings(KafkaMetricsDetail.SUMMARY, Optional.empty());
    }
}
