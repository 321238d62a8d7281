package io.agentoutcomes.app.metrics;

import java.util.Optional;

/**
 * What the service exports: how finely {@code GET /metrics} shows Kafka Streams' metrics, whether the pipeline's
 * processor nodes are timed ({@link StageTimingMeters}), and the OTLP push of the GenAI conventions' metrics, if any
 * ({@code metrics.otlp.url} set).
 */
public record MetricsSettings(KafkaMetricsDetail kafkaDetail, boolean stageTimings, Optional<OtlpSettings> otlp) {
    /** The defaults: summary, stages timed, no push. */
    public static MetricsSettings defaults() {
        return new MetricsSettings(KafkaMetricsDetail.SUMMARY, true, Optional.empty());
    }
}
