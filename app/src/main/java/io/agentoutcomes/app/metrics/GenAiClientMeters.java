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
import java.util.ArrayList;
import java.util.Arrays;
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

    /** Where the series are pushed as well, over OTLP ({@code metrics.otlp.url}); null: nowhere. */
    private volatile OtlpPush push;

    void pushTo(OtlpPush push) {
        this.push = push;
    }

    /** The series afresh from the capped totals the domain meters just read. */
    void refresh(Collection<AgentMetrics> capped) {
        Map<Map<String, String>, Map<String, Long>> byAttributes = new TreeMap<>(GenAiClientMeters::compare);
        for (AgentMetrics m : capped) {
            Map<String, Long> into = byAttributes.computeIfAbsent(attributes(m), l -> new TreeMap<>());
            m.getGenAiHistograms().forEach((key, value) -> into.merge(key, value, Long::sum));
        }
        List<GenAiSeries> tokens = new ArrayList<>();
        List<GenAiSeries> durations = new ArrayList<>();
        byAttributes.forEach((attributes, histograms) -> {
            for (String type : GenAiHistograms.TOKEN_TYPES) {
                series(GenAiSeries.TOKEN_USAGE_OTEL, histograms, GenAiHistograms.TOKEN, GenAiHistograms.TOKEN_SUM, type,
                        GenAiHistograms.TOKEN_BOUNDS, 1, with(attributes, GenAiConventions.TOKEN_TYPE, type))
                        .ifPresent(tokens::add);
            }
            histograms.keySet().stream().filter(key -> key.startsWith(GenAiHistograms.DURATION_MS + '|'))
                    .map(key -> key.substring(GenAiHistograms.DURATION_MS.length() + 1)).toList().forEach(errorType ->
                            series(GenAiSeries.OPERATION_DURATION_OTEL, histograms, GenAiHistograms.DURATION, GenAiHistograms.DURATION_MS,
                                    errorType, GenAiHistograms.DURATION_BOUNDS_MS, 1000, errorType.isEmpty() ? attributes
                                            : with(attributes, GenAiConventions.ERROR_TYPE, errorType))
                                    .ifPresent(durations::add));
        });
        tokenUsage = snapshot(HistogramSnapshot.builder().name(TOKEN_USAGE)
                .help("Number of input and output tokens used, per result (OpenTelemetry gen_ai.client.token.usage, {token})"),
                tokens);
        this.durations = snapshot(HistogramSnapshot.builder().name(OPERATION_DURATION).unit(Unit.SECONDS)
                .help("GenAI operation duration, per result that reports one (OpenTelemetry gen_ai.client.operation.duration)"),
                durations);
        OtlpPush target = push;
        if (target != null) {
            List<GenAiSeries> all = new ArrayList<>(tokens);
            all.addAll(durations);
            target.set(all);
        }
    }

    private static HistogramSnapshot snapshot(HistogramSnapshot.Builder builder, List<GenAiSeries> series) {
        for (GenAiSeries one : series) {
            double[] bounds = Arrays.copyOf(one.bounds(), one.bounds().length + 1);
            bounds[one.bounds().length] = Double.POSITIVE_INFINITY;
            Labels.Builder labels = Labels.builder();
            one.attributes().forEach((name, value) -> labels.label(name.replace('.', '_'), value));
            builder.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels.build())
                    .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, one.counts())).sum(one.sum()).build());
        }
        return builder.build();
    }

    /** One series from the kept buckets and sum, its bounds and sum divided by {@code unit}; empty when it counted none. */
    private static Optional<GenAiSeries> series(String name, Map<String, Long> histograms, String bucketKey, String sumKey,
                                           String series, long[] bounds, double unit, Map<String, String> attributes) {
        double[] upperBounds = new double[bounds.length];
        long[] counts = new long[bounds.length + 1];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            if (i < bounds.length) {
                upperBounds[i] = bounds[i] / unit;
            }
            counts[i] = histograms.getOrDefault(bucketKey + '|' + series + '|' + i, 0L);
            total += counts[i];
        }
        return total == 0 ? Optional.empty() : Optional.of(new GenAiSeries(name, attributes, upperBounds, counts,
                histograms.getOrDefault(sumKey + '|' + series, 0L) / unit));
    }

    private static Map<String, String> with(Map<String, String> attributes, String name, String value) {
        Map<String, String> more = new TreeMap<>(attributes);
        more.put(name, value);
        return more;
    }

    private static int compare(Map<String, String> a, Map<String, String> b) {
        return a.toString().compareTo(b.toString());
    }

    /** The conventions' attributes of a total: operation, provider (its well-known name) and model. */
    private static Map<String, String> attributes(AgentMetrics m) {
        Map<String, String> attributes = new TreeMap<>();
        attributes.put(GenAiConventions.OPERATION_NAME, m.getAgentId().equals(Dimensions.WORKFLOW)
                ? GenAiConventions.OPERATION_INVOKE_WORKFLOW : GenAiConventions.OPERATION_INVOKE_AGENT);
        attributes.put(GenAiConventions.PROVIDER_NAME, GenAiConventions.providerName(Dimension.PROVIDER.of(m)));
        attributes.put(GenAiConventions.REQUEST_MODEL, Objects.requireNonNullElse(Dimension.MODEL.of(m), Dimensions.UNKNOWN));
        return attributes;
    }
}
