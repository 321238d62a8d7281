package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.analytics.Figures;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The OTLP push on a receiver in the test that decodes OpenTelemetry's own protobuf: the conventions' metrics under
 * their OpenTelemetry names, units and attributes, the same buckets and sums {@code GET /metrics} shows.
 */
class OtlpPushTest {
    private final List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
    private final List<String> apiKeys = new CopyOnWriteArrayList<>();
    private final HttpServer receiver = receiver();

    private HttpServer receiver() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/v1/metrics", exchange -> {
                try (InputStream body = exchange.getRequestBody()) {
                    received.add(ExportMetricsServiceRequest.parseFrom(body.readAllBytes()));
                }
                apiKeys.add(exchange.getRequestHeaders().getFirst("api-key"));
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    private static ClassifiedOutcome outcome(String agent, String provider, String model, Usage usage, long durationMs,
                                             ResultType type, String errorCode) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + agent).setAgentId(agent).setTaskId("t")
                .setExecution(ExecutionMetadata.newBuilder().setModel(model).setProvider(provider).setUsage(usage)
                        .setDurationMs(durationMs).build())
                .setOutcome(Success.newBuilder().build()).build();
        return ClassifiedOutcome.newBuilder().setTaskId("t").setResultId("r-" + agent).setAttempt(0).setResultType(type)
                .setErrorCode(errorCode).setReason("r").setClassifiedAt(0L).setRetryCount(0).setAgentResult(result).build();
    }

    @Test
    void theConventionsMetricsArePushedAsCumulativeHistogramsUnderTheirOpenTelemetryNames() {
        Figures.Tally tally = new Figures.Tally();
        tally.add(outcome("reviewer", "anthropic", "claude-sonnet-4",
                Usage.newBuilder().setInputTokens(100L).setCacheReadTokens(1_000L).setCacheWriteTokens(20L).setOutputTokens(7L)
                        .build(), 1_200, ResultType.SUCCESS, null));
        tally.add(outcome("planner", "anthropic", "claude-sonnet-4",
                Usage.newBuilder().setInputTokens(3L).setOutputTokens(300L).build(), 50, ResultType.SUCCESS, null));
        tally.add(outcome("coder", "openai", "gpt-4o", Usage.newBuilder().setTotalTokens(42L).build(), 90_000,
                ResultType.RETRYABLE_FAILURE, "RATE_LIMITED"));
        List<AgentMetrics> totals = List.copyOf(tally.aggregates());
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DomainMeters domain = new DomainMeters(prometheus, () -> totals, 50);
        GenAiClientMeters genAi = new GenAiClientMeters(prometheus);
        OtlpSettings settings = new OtlpSettings("http://127.0.0.1:" + receiver.getAddress().getPort() + "/v1/metrics",
                Duration.ofHours(1), Map.of("api-key", "s3cret-key"), Map.of("service.name", "agent-outcomes-test"));
        OtlpPush push = OtlpPush.start(settings, () -> domain.refresh().ifPresent(genAi::refresh));
        genAi.pushTo(push);

        push.close(); // pushes once more as it stops: the push under test

        assertThat(received).hasSize(1);
        assertThat(apiKeys).containsExactly("s3cret-key");
        assertThat(settings.toString()).contains("api-key=[hidden]").doesNotContain("s3cret");
        ResourceMetrics resource = received.get(0).getResourceMetrics(0);
        assertThat(attributes(resource.getResource().getAttributesList())).containsEntry("service.name", "agent-outcomes-test");
        Map<String, Metric> metrics = resource.getScopeMetricsList().stream().flatMap(s -> s.getMetricsList().stream())
                .collect(Collectors.toMap(Metric::getName, m -> m));
        assertThat(metrics).containsOnlyKeys("gen_ai.client.token.usage", "gen_ai.client.operation.duration");

        Metric tokens = metrics.get("gen_ai.client.token.usage");
        assertThat(tokens.getUnit()).isEqualTo("{token}");
        assertThat(tokens.getHistogram().getAggregationTemporality())
                .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
        HistogramDataPoint input = point(tokens, Map.of("gen_ai.operation.name", "invoke_agent",
                "gen_ai.provider.name", "anthropic", "gen_ai.request.model", "claude-sonnet-4", "gen_ai.token.type", "input"));
        assertThat(input.getExplicitBoundsList()).containsExactly(1.0, 4.0, 16.0, 64.0, 256.0, 1_024.0, 4_096.0, 16_384.0,
                65_536.0, 262_144.0, 1_048_576.0, 4_194_304.0, 16_777_216.0, 67_108_864.0);
        assertThat(input.getBucketCountsList()).containsExactly(0L, 1L, 0L, 0L, 0L, 0L, 1L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
        assertThat(input.getCount()).isEqualTo(2);
        assertThat(input.getSum()).isEqualTo(1_123.0);
        HistogramDataPoint unknown = point(tokens, Map.of("gen_ai.operation.name", "invoke_agent",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o", "gen_ai.token.type", "unknown"));
        assertThat(unknown.getCount()).isEqualTo(1);
        assertThat(unknown.getSum()).isEqualTo(42.0);
        assertThat(tokens.getHistogram().getDataPointsCount()).as("input, output of claude; unknown of gpt-4o").isEqualTo(3);

        Metric duration = metrics.get("gen_ai.client.operation.duration");
        assertThat(duration.getUnit()).isEqualTo("s");
        HistogramDataPoint failed = point(duration, Map.of("gen_ai.operation.name", "invoke_agent",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o", "error.type", "RATE_LIMITED"));
        assertThat(failed.getExplicitBoundsList()).containsExactly(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56,
                5.12, 10.24, 20.48, 40.96, 81.92);
        assertThat(failed.getBucketCountsList()).containsExactly(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 1L);
        assertThat(failed.getSum()).isEqualTo(90.0);
        HistogramDataPoint claude = point(duration, Map.of("gen_ai.operation.name", "invoke_agent",
                "gen_ai.provider.name", "anthropic", "gen_ai.request.model", "claude-sonnet-4"));
        assertThat(claude.getCount()).isEqualTo(2);
        assertThat(claude.getSum()).isEqualTo(1.25);
    }

    private static HistogramDataPoint point(Metric metric, Map<String, String> attributes) {
        List<HistogramDataPoint> points = metric.getHistogram().getDataPointsList().stream()
                .filter(p -> attributes(p.getAttributesList()).equals(attributes)).toList();
        assertThat(points).as("%s %s", metric.getName(), attributes).hasSize(1);
        return points.get(0);
    }

    private static Map<String, String> attributes(List<KeyValue> attributes) {
        return attributes.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().getStringValue()));
    }
}
