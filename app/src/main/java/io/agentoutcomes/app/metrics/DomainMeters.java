package io.agentoutcomes.app.metrics;

import io.agentoutcomes.app.http.query.QueryUnavailable;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.DurationSketch;
import io.agentoutcomes.topology.analytics.Figures;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.HdrHistogram.AbstractHistogram;

/**
 * The pipeline's domain meters, read from the analytics running totals this instance holds (so they are exactly-once,
 * like the totals; Prometheus sums the instances). Every series is labelled with the OpenTelemetry GenAI attributes
 * {@code gen_ai.operation.name} ({@code invoke_agent}; {@code invoke_workflow} for workflow nodes), {@code gen_ai.agent.id},
 * {@code gen_ai.request.model} and {@code gen_ai.provider.name} ({@link GenAiConventions}), and {@code tenant} and
 * {@code team} where they key the analytics windows (never the user or tag: too many series). What each counts is
 * {@link Figures}' definition, the same as the report's, {@code /analytics}' and the dashboard's:
 * <ul>
 *   <li>counters ({@code _total}): results by type, failures by {@code error.type}, tokens by {@code gen_ai.token.type}
 *       (input including cache reads and writes, as the conventions count it; output including reasoning; unknown:
 *       results that report only a total) with the cache reads and writes and the reasoning tokens
 *       as their own counters beside them, cost in US dollars and its reported parts, retries scheduled, dead letters
 *       by stop reason, results by confidence range;</li>
 *   <li>{@value #DURATION}: a histogram of result durations in seconds, its buckets read from the totals' duration
 *       sketch, its sum exact.</li>
 * </ul>
 * No series is a sum of others beside them, so a PromQL {@code sum()} over one metric counts nothing twice. At most
 * {@code maxLabelSets} agent/model/provider combinations get their own series, the most expensive first; the rest are
 * summed under {@value #OTHER}. A series whose combination leaves this instance (its partition moved to another)
 * disappears here and appears there with the whole running total.
 */
public final class DomainMeters {
    public static final String OTHER = "_other";
    static final String DURATION = "agent_outcomes_duration_seconds";
    /** Duration bucket bounds, seconds; the sketch holds 1 ms to 1 day. */
    static final double[] DURATION_BOUNDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
        600, 1800, 3600};

    private final Supplier<List<AgentMetrics>> totals;
    private final int maxLabelSets;
    /** The dimensions that label the series: those keyed that are bounded enough for Prometheus, in their order. */
    private final Dimension[] labelled;
    private final CounterFamily results;
    private final CounterFamily failures;
    private final CounterFamily tokens;
    private final CounterFamily cacheReadTokens;
    private final CounterFamily cacheWriteTokens;
    private final CounterFamily reasoningTokens;
    private final CounterFamily cost;
    private final CounterFamily costParts;
    private final CounterFamily retries;
    private final CounterFamily deadLetters;
    private final CounterFamily confidence;
    private volatile HistogramSnapshot durations = HistogramSnapshot.builder().name(DURATION).build();

    public DomainMeters(PrometheusMeterRegistry registry, Supplier<List<AgentMetrics>> totals, int maxLabelSets) {
        this(registry, totals, maxLabelSets, Dimension.DEFAULTS);
    }

    /** @param keyed what keys the analytics windows; those with a {@link Dimension#metricLabel()} label the series */
    public DomainMeters(PrometheusMeterRegistry registry, Supplier<List<AgentMetrics>> totals, int maxLabelSets,
                       Set<Dimension> keyed) {
        this.totals = totals;
        this.maxLabelSets = maxLabelSets;
        this.labelled = keyed.stream().filter(Dimension::metricLabel).sorted().toArray(Dimension[]::new);
        results = new CounterFamily(registry, "agent_outcomes_results", "Classified results by result type");
        failures = new CounterFamily(registry, "agent_outcomes_failures",
                "Failed results by canonical error code (error.type): a breakdown of the failure types of agent_outcomes_results");
        tokens = new CounterFamily(registry, "agent_outcomes_tokens",
                "Tokens by gen_ai.token.type; input includes cache reads and writes (OpenTelemetry GenAI conventions)");
        cacheReadTokens = new CounterFamily(registry, "agent_outcomes_cache_read_input_tokens",
                "Input tokens read from the provider's prompt cache (part of the input tokens)");
        cacheWriteTokens = new CounterFamily(registry, "agent_outcomes_cache_write_input_tokens",
                "Input tokens written to the provider's prompt cache (part of the input tokens)");
        reasoningTokens = new CounterFamily(registry, "agent_outcomes_reasoning_output_tokens",
                "Output tokens spent on reasoning (part of the output tokens)");
        cost = new CounterFamily(registry, "agent_outcomes_cost_usd", "Cost in US dollars");
        costParts = new CounterFamily(registry, "agent_outcomes_cost_part_usd",
                "Cost in US dollars of the parts results report (input, output, cache_read, cache_write): a breakdown of "
                        + "agent_outcomes_cost_usd where reported");
        retries = new CounterFamily(registry, "agent_outcomes_retries", "Retries scheduled");
        deadLetters = new CounterFamily(registry, "agent_outcomes_dead_letters", "Dead letters by stop reason");
        confidence = new CounterFamily(registry, "agent_outcomes_confidence_results",
                "Results by reported confidence, in tenths");
        registry.getPrometheusRegistry().register(new Collector() {
            @Override
            public MetricSnapshot collect() {
                return durations;
            }

            @Override
            public String getPrometheusName() {
                return DURATION;
            }
        });
    }

    /**
     * Reads the totals again; call before a scrape. While they cannot be read completely, the meters keep their values
     * (and the answer is empty); else it is the totals as the series have them, merged by label set and capped.
     */
    public Optional<Collection<AgentMetrics>> refresh() {
        Map<Tags, AgentMetrics> byLabels;
        try {
            // the cap counts label sets, so totals of dimensions that are no label (user, tag) are merged first
            byLabels = byLabels(capped(List.copyOf(byLabels(totals.get()).values())));
        } catch (QueryUnavailable e) {
            return Optional.empty();
        }
        Values resultValues = new Values();
        Values failureValues = new Values();
        Values tokenValues = new Values();
        Values cacheReadValues = new Values();
        Values cacheWriteValues = new Values();
        Values reasoningValues = new Values();
        Values costValues = new Values();
        Values costPartValues = new Values();
        Values retryValues = new Values();
        Values deadLetterValues = new Values();
        Values confidenceValues = new Values();
        HistogramSnapshot.Builder durationSnapshot = HistogramSnapshot.builder().name(DURATION).unit(Unit.SECONDS)
                .help("Durations of results that report one, in seconds");
        byLabels.forEach((tags, m) -> {
            m.getCompletions().forEach((type, count) -> resultValues.add(tags.and("result_type", type), count));
            m.getFailuresByErrorCode().forEach((code, count) ->
                    failureValues.add(tags.and(GenAiConventions.ERROR_TYPE, code), count));
            Figures.Tokens tokenTypes = Figures.tokens(m);
            tokenValues.add(tags.and(GenAiConventions.TOKEN_TYPE, GenAiConventions.TOKEN_TYPE_INPUT), tokenTypes.input());
            tokenValues.add(tags.and(GenAiConventions.TOKEN_TYPE, GenAiConventions.TOKEN_TYPE_OUTPUT), tokenTypes.output());
            tokenValues.add(tags.and(GenAiConventions.TOKEN_TYPE, GenAiConventions.TOKEN_TYPE_UNKNOWN), tokenTypes.unknown());
            cacheReadValues.add(tags, m.getCacheReadTokens());
            cacheWriteValues.add(tags, m.getCacheWriteTokens());
            reasoningValues.add(tags, m.getReasoningTokens());
            costValues.add(tags, m.getCostTotal());
            costPartValues.add(tags.and("part", "input"), m.getCostInput());
            costPartValues.add(tags.and("part", "output"), m.getCostOutput());
            costPartValues.add(tags.and("part", "cache_read"), m.getCostCacheRead());
            costPartValues.add(tags.and("part", "cache_write"), m.getCostCacheWrite());
            retryValues.add(tags, m.getRetries());
            m.getDeadLetters().forEach((reason, count) -> deadLetterValues.add(tags.and("stop_reason", reason), count));
            m.getConfidenceBuckets().forEach((range, count) -> confidenceValues.add(tags.and("confidence_range", range), count));
            if (m.getDurationCount() > 0) {
                durationSnapshot.dataPoint(durationPoint(tags, m));
            }
        });
        results.set(resultValues);
        failures.set(failureValues);
        tokens.set(tokenValues);
        cacheReadTokens.set(cacheReadValues);
        cacheWriteTokens.set(cacheWriteValues);
        reasoningTokens.set(reasoningValues);
        cost.set(costValues);
        costParts.set(costPartValues);
        retries.set(retryValues);
        deadLetters.set(deadLetterValues);
        confidence.set(confidenceValues);
        durations = durationSnapshot.build();
        return Optional.of(byLabels.values());
    }

    /** Rows merged by label set: two provider spellings of one well-known value, or rows apart only in user or tag. */
    private Map<Tags, AgentMetrics> byLabels(List<AgentMetrics> rows) {
        Map<Tags, AgentMetrics> byLabels = new LinkedHashMap<>();
        for (AgentMetrics row : rows) {
            byLabels.merge(labels(row), row, MetricsAggregator::merge);
        }
        return byLabels;
    }

    /** A label per labelled dimension (a provider by its well-known name; null: unknown), and the operation. */
    private Tags labels(AgentMetrics m) {
        Tags tags = Tags.empty();
        for (Dimension dimension : labelled) {
            String value = Objects.requireNonNullElse(dimension.of(m), Dimensions.UNKNOWN);
            tags = tags.and(dimension.attribute(),
                    dimension == Dimension.PROVIDER ? GenAiConventions.providerName(value) : value);
        }
        return tags.and(GenAiConventions.OPERATION_NAME, m.getAgentId().equals(Dimensions.WORKFLOW)
                ? GenAiConventions.OPERATION_INVOKE_WORKFLOW : GenAiConventions.OPERATION_INVOKE_AGENT);
    }

    /**
     * One label set's histogram: each bucket counts the sketch's durations up to its bound (the sketch keeps 3
     * significant digits, so a duration within 0.1 % above a bound may count in it); count and sum are exact.
     */
    private static HistogramSnapshot.HistogramDataPointSnapshot durationPoint(Tags tags, AgentMetrics m) {
        AbstractHistogram sketch = DurationSketch.decode(m.getDurationSketch());
        double[] bounds = new double[DURATION_BOUNDS.length + 1];
        long[] counts = new long[bounds.length];
        long below = 0;
        for (int i = 0; i < DURATION_BOUNDS.length; i++) {
            long upToBound = sketch.getCountBetweenValues(0, Math.round(DURATION_BOUNDS[i] * 1000));
            bounds[i] = DURATION_BOUNDS[i];
            counts[i] = upToBound - below;
            below = upToBound;
        }
        bounds[DURATION_BOUNDS.length] = Double.POSITIVE_INFINITY;
        counts[DURATION_BOUNDS.length] = sketch.getTotalCount() - below;
        Labels.Builder labels = Labels.builder();
        tags.forEach(tag -> labels.label(tag.getKey().replace('.', '_'), tag.getValue()));
        return HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels.build())
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                .sum(m.getDurationSumMs() / 1000.0).build();
    }

    /**
     * The most expensive label sets up to the cap; the rest merged into one {@value #OTHER} set. The workflow nodes'
     * ({@value Dimensions#WORKFLOW}, no cost) keep their own, beside the cap.
     */
    List<AgentMetrics> capped(List<AgentMetrics> all) {
        if (all.size() <= maxLabelSets) {
            return all;
        }
        List<AgentMetrics> workflow = all.stream().filter(m -> m.getAgentId().equals(Dimensions.WORKFLOW)).toList();
        if (!workflow.isEmpty()) {
            List<AgentMetrics> agents = all.stream().filter(m -> !m.getAgentId().equals(Dimensions.WORKFLOW)).toList();
            List<AgentMetrics> kept = new ArrayList<>(capped(agents));
            kept.addAll(workflow);
            return kept;
        }
        List<AgentMetrics> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparing(AgentMetrics::getCostTotal, Comparator.<BigDecimal>reverseOrder())
                .thenComparing(AgentMetrics::getAgentId));
        List<AgentMetrics> kept = new ArrayList<>(sorted.subList(0, Math.max(0, maxLabelSets - 1)));
        AgentMetrics other = null;
        for (AgentMetrics rest : sorted.subList(kept.size(), sorted.size())) {
            other = other == null ? rest : MetricsAggregator.merge(other, rest);
        }
        kept.add(Dimensions.allOf(OTHER).applyTo(AgentMetrics.newBuilder(MetricsAggregator.withPercentiles(other))).build());
        return kept;
    }

    /** Values by label set for one counter name, summed where label sets coincide. */
    private static final class Values extends HashMap<Tags, Double> {
        void add(Tags tags, long value) {
            merge(tags, (double) value, Double::sum);
        }

        void add(Tags tags, BigDecimal value) {
            merge(tags, value.doubleValue(), Double::sum);
        }
    }
}
