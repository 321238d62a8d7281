package io.agentoutcomes.app.metrics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.GenAiHistograms;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The OpenTelemetry GenAI semantic conventions' client metrics, as the OpenTelemetry to Prometheus conversion names
 * them: {@value #TOKEN_USAGE} ({@code gen_ai.client.token.usage}, unit {@code {token}}, by {@code gen_ai.token.type})
 * and {@value #OPERATION_DURATION} ({@code gen_ai.client.operation.duration}, unit {@code s}, {@code error.type} on
 * failures), at the conventions' advised bucket boundaries, labelled by {@code gen_ai.operation.name},
 * {@code gen_ai.provider.name} and {@code gen_ai.request.model} only. Read from the same capped running totals as the
 * domain meters ({@link DomainMeters#refresh}, at most {@code maxLabelSets} agent/model/provider combinations), their
 * per-result buckets kept in the aggregates ({@link GenAiHistograms}): over the same results a token series' sum is
 * {@code agent_outcomes_tokens_total} of its type, and the duration series' counts and sums add up to
 * {@code agent_outcomes_duration_seconds}'.
 */
public final class GenAiClientMeters {
    static final String TOKEN_USAGE = "gen_ai_client_token_usage";
    static final String OPERATION_DURATION = "gen_ai_client_operation_duration_seconds";

    private volatile HistogramSnapshot tokenUsage = HistogramSnapshot.builder().name(TOKEN_USAGE).build();
    private volatile HistogramSnapshot durations = HistogramSnapshot.builder().name(OPERATION_DURATION).build();

    public GenAiClientMeters(PrometheusMeterRegistry registry) {
        register(registry, TOKEN_USAGE, () -> tokenUsage);
        register(registry, OPERATION_DURATION, () -> durations);
    }

    private static void register(PrometheusMeterRegistry registry, String name, Supplier<MetricSnapshot> snapshot) {
        registry.getPrometheusRegistry().register(new Collector() {
            @Override
            public MetricSnapshot collect() {
                return snapshot.get();
            }

            @Override
            public String getPrometheusName() {
                return name;
            }
        });
    }

    /** The series afresh from the capped totals the domain meters just read. */
    void refresh(Collection<AgentMetrics> capped) {
        Map<Labels, Map<String, Long>> byLabels = new TreeMap<>();
        for (AgentMetrics m : capped) {
            Map<String, Long> into = byLabels.computeIfAbsent(labels(m), l -> new TreeMap<>());
            m.getGenAiHistograms().forEach((key, value) -> into.merge(key, value, Long::sum));
        }
        HistogramSnapshot.Builder tokens = HistogramSnapshot.builder().name(TOKEN_USAGE)
                .help("Number of input and output tokens used, per result (OpenTelemetry gen_ai.client.token.usage, {token})");
        HistogramSnapshot.Builder duration = HistogramSnapshot.builder().name(OPERATION_DURATION).unit(Unit.SECONDS)
                .help("GenAI operation duration, per result that reports one (OpenTelemetry gen_ai.client.operation.duration)");
        byLabels.forEach((labels, histograms) -> {
            for (String type : GenAiHistograms.TOKEN_TYPES) {
                point(histograms, GenAiHistograms.TOKEN, GenAiHistograms.TOKEN_SUM, type, GenAiHistograms.TOKEN_BOUNDS, 1)
                        .map(p -> p.labels(labels.add(label(GenAiConventions.TOKEN_TYPE), type)).build())
                        .ifPresent(tokens::dataPoint);
            }
            histograms.keySet().stream().filter(key -> key.startsWith(GenAiHistograms.DURATION_MS + '|'))
                    .map(key -> key.substring(GenAiHistograms.DURATION_MS.length() + 1)).toList().forEach(errorType ->
                            point(histograms, GenAiHistograms.DURATION, GenAiHistograms.DURATION_MS, errorType,
                                    GenAiHistograms.DURATION_BOUNDS_MS, 1000)
                                    .map(p -> p.labels(errorType.isEmpty() ? labels
                                            : labels.add(label(GenAiConventions.ERROR_TYPE), errorType)).build())
                                    .ifPresent(duration::dataPoint));
        });
        tokenUsage = tokens.build();
        durations = duration.build();
    }

    /** One series' point from the kept buckets and sum, its bounds divided by {@code unit}; empty when it counted none. */
    private static Optional<HistogramSnapshot.HistogramDataPointSnapshot.Builder> point(
            Map<String, Long> histograms, String bucketKey, String sumKey, String series, long[] bounds, double unit) {
        double[] upperBounds = new double[bounds.length + 1];
        long[] counts = new long[upperBounds.length];
        long total = 0;
        for (int i = 0; i < upperBounds.length; i++) {
            upperBounds[i] = i < bounds.length ? bounds[i] / unit : Double.POSITIVE_INFINITY;
            counts[i] = histograms.getOrDefault(bucketKey + '|' + series + '|' + i, 0L);
            total += counts[i];
        }
        if (total == 0) {
            return Optional.empty();
        }
        return Optional.of(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, counts))
                .sum(histograms.getOrDefault(sumKey + '|' + series, 0L) / unit));
    }

    /** The conventions' attributes of a total: operation, provider (its well-known name) and model. */
    private static Labels labels(AgentMetrics m) {
        String operation = m.getAgentId().equals(Dimensions.WORKFLOW)
                ? GenAiConventions.OPERATION_INVOKE_WORKFLOW : GenAiConventions.OPERATION_INVOKE_AGENT;
        return Labels.of(List.of(label(GenAiConventions.OPERATION_NAME), label(GenAiConventions.PROVIDER_NAME),
                        label(GenAiConventions.REQUEST_MODEL)),
                List.of(operation, GenAiConventions.providerName(Dimension.PROVIDER.of(m)),
                        Objects.requireNonNullElse(Dimension.MODEL.of(m), Dimensions.UNKNOWN)));
    }

    /** An attribute's Prometheus label name: its dots as underscores. */
    private static String label(String attribute) {
        return attribute.replace('.', '_');
    }
}
