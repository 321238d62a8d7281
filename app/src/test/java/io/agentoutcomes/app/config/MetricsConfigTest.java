package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.metrics.KafkaMetricsDetail;
import io.agentoutcomes.app.metrics.OtlpSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code metrics.otlp.*} settings: off by default, parsed once, the headers a secret in every message. */
class MetricsConfigTest {
    private static AppConfig load(Map<String, String> settings) {
        return ConfigLoader.load(Optional.empty(), Map.of(), settings);
    }

    @Test
    void theOtlpPushIsOffByDefault() {
        assertThat(load(Map.of()).metrics().otlp()).isEmpty();
        assertThat(load(Map.of()).metrics().kafkaDetail()).isEqualTo(KafkaMetricsDetail.SUMMARY);
    }

    @Test
    void anEndpointTurnsThePushOnWithItsStepHeadersAndResource() {
        OtlpSettings otlp = load(Map.of(MetricsConfig.METRICS_OTLP_URL, "https://otlp.example.com/v1/metrics",
                MetricsConfig.METRICS_OTLP_STEP_MS, "15000",
                MetricsConfig.METRICS_OTLP_HEADERS, "api-key=k=1, x-tenant = fleet",
                MetricsConfig.METRICS_OTLP_RESOURCE_ATTRIBUTES, "service.name=outcomes,deployment.environment.name=prod"))
                .metrics().otlp().orElseThrow();

        assertThat(otlp.url()).isEqualTo("https://otlp.example.com/v1/metrics");
        assertThat(otlp.step()).isEqualTo(Duration.ofSeconds(15));
        assertThat(otlp.headers()).isEqualTo(Map.of("api-key", "k=1", "x-tenant", "fleet"));
        assertThat(otlp.resourceAttributes())
                .isEqualTo(Map.of("service.name", "outcomes", "deployment.environment.name", "prod"));
        assertThat(otlp.toString()).doesNotContain("k=1").doesNotContain("fleet").contains("api-key=[hidden]");
        assertThat(load(Map.of(MetricsConfig.METRICS_OTLP_URL, "http://c:4318/v1/metrics")).metrics().otlp().orElseThrow()
                .resourceAttributes()).isEqualTo(Map.of("service.name", "agent-outcomes"));
    }

    @Test
    void malformedHeadersAreRefusedWithoutRepeatingThem() {
        assertThatThrownBy(() -> load(Map.of(MetricsConfig.METRICS_OTLP_URL, "http://c:4318/v1/metrics",
                MetricsConfig.METRICS_OTLP_HEADERS, "api-key=ok,s3cretWithoutName")))
                .hasMessageContaining(MetricsConfig.METRICS_OTLP_HEADERS).hasMessageContaining("pair 2 is not name=value")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void anEndpointWithCredentialsOrNotHttpIsRefused() {
        assertThatThrownBy(() -> load(Map.of(MetricsConfig.METRICS_OTLP_URL, "https://user:s3cret@otlp.example.com/v1/metrics")))
                .hasMessageContaining("credentials belong in metrics.otlp.headers").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> load(Map.of(MetricsConfig.METRICS_OTLP_URL, "grpc://c:4317")))
                .hasMessageContaining("not an http:// or https:// URL");
    }
}
