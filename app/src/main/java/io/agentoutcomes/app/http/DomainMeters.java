package io.agentoutcomes.app.http;

import io.agentoutcomes.avro.AgentMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The pipeline's domain meters for Prometheus, read from the analytics running totals this instance holds (so they
 * are exactly-once, like the totals; Prometheus sums the instances): results by type, tokens by kind, cost by part,
 * retries, dead letters by stop reason, duration quantiles; tagged by agent, model and provider. At most
 * {@code maxLabelSets} agent/model/provider combinations get their own series, the most expensive first; the rest
 * are summed under {@value #OTHER}.
 */
public final class DomainMeters {
    public static final String OTHER = "_other";

    private final Supplier<List<AgentMetrics>> totals;
    private final int maxLabelSets;
    private final MultiGauge results;
    private final MultiGauge tokens;
    private final MultiGauge cost;
    private final MultiGauge retries;
    private final MultiGauge deadLetters;
    private final MultiGauge duration;
    private final MultiGauge confidence;

    public DomainMeters(MeterRegistry registry, Supplier<List<AgentMetrics>> totals, int maxLabelSets) {
        this.totals = totals;
        this.maxLabelSets = maxLabelSets;
        results = MultiGauge.builder("agent_outcomes_results").description("Completions by result type").register(registry);
        tokens = MultiGauge.builder("agent_outcomes_tokens").description("Tokens by kind (cache tokens normalized)")
                .register(registry);
        cost = MultiGauge.builder("agent_outcomes_cost_usd").description("Cost in US dollars by part").register(registry);
        retries = MultiGauge.builder("agent_outcomes_retries").description("Retries scheduled").register(registry);
        deadLetters = MultiGauge.builder("agent_outcomes_dead_letters").description("Dead letters by stop reason")
                .register(registry);
        duration = MultiGauge.builder("agent_outcomes_duration_ms").description("Duration quantiles in milliseconds")
                .register(registry);
        confidence = MultiGauge.builder("agent_outcomes_confidence")
                .description("Completions by reported confidence, in tenths (seed 000)").register(registry);
    }

    /** Reads the totals again; call before a scrape. While they cannot be read completely, the meters keep their values. */
    public void refresh() {
        List<AgentMetrics> rows;
        try {
            rows = capped(totals.get());
        } catch (QueryUnavailable e) {
            return;
        }
        List<MultiGauge.Row<?>> resultRows = new ArrayList<>();
        List<MultiGauge.Row<?>> tokenRows = new ArrayList<>();
        List<MultiGauge.Row<?>> costRows = new ArrayList<>();
        List<MultiGauge.Row<?>> retryRows = new ArrayList<>();
        List<MultiGauge.Row<?>> deadLetterRows = new ArrayList<>();
        List<MultiGauge.Row<?>> durationRows = new ArrayList<>();
        List<MultiGauge.Row<?>> confidenceRows = new ArrayList<>();
        for (AgentMetrics m : rows) {
            Tags tags = Tags.of("agent", m.getAgentId(), "model", m.getModel(), "provider", m.getProvider());
            m.getCompletions().forEach((type, count) -> resultRows.add(MultiGauge.Row.of(tags.and("result_type", type), count)));
            tokenRows.add(MultiGauge.Row.of(tags.and("kind", "input"), m.getInputTokens()));
            tokenRows.add(MultiGauge.Row.of(tags.and("kind", "output"), m.getOutputTokens()));
            tokenRows.add(MultiGauge.Row.of(tags.and("kind", "cache_read"), m.getCacheReadTokens()));
            tokenRows.add(MultiGauge.Row.of(tags.and("kind", "cache_write"), m.getCacheWriteTokens()));
            tokenRows.add(MultiGauge.Row.of(tags.and("kind", "total"), m.getTotalTokens()));
            costRows.add(MultiGauge.Row.of(tags.and("part", "total"), m.getCostTotal().doubleValue()));
            costRows.add(MultiGauge.Row.of(tags.and("part", "input"), m.getCostInput().doubleValue()));
            costRows.add(MultiGauge.Row.of(tags.and("part", "output"), m.getCostOutput().doubleValue()));
            costRows.add(MultiGauge.Row.of(tags.and("part", "cache_read"), m.getCostCacheRead().doubleValue()));
            costRows.add(MultiGauge.Row.of(tags.and("part", "cache_write"), m.getCostCacheWrite().doubleValue()));
            retryRows.add(MultiGauge.Row.of(tags, m.getRetries()));
            m.getDeadLetters().forEach((reason, count) -> deadLetterRows.add(MultiGauge.Row.of(tags.and("stop_reason", reason), count)));
            m.getConfidenceBuckets().forEach((bucket, count) -> confidenceRows.add(MultiGauge.Row.of(tags.and("bucket", bucket), count)));
            if (m.getDurationP50Ms() != null) {
                durationRows.add(MultiGauge.Row.of(tags.and("quantile", "0.5"), m.getDurationP50Ms()));
                durationRows.add(MultiGauge.Row.of(tags.and("quantile", "0.95"), m.getDurationP95Ms()));
                durationRows.add(MultiGauge.Row.of(tags.and("quantile", "0.99"), m.getDurationP99Ms()));
            }
        }
        results.register(resultRows, true);
        tokens.register(tokenRows, true);
        cost.register(costRows, true);
        retries.register(retryRows, true);
        deadLetters.register(deadLetterRows, true);
        duration.register(durationRows, true);
        confidence.register(confidenceRows, true);
    }

    /** The most expensive label sets up to the cap; the rest merged into one {@value #OTHER} set. */
    List<AgentMetrics> capped(List<AgentMetrics> all) {
        if (all.size() <= maxLabelSets) {
            return all;
        }
        List<AgentMetrics> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparing(AgentMetrics::getCostTotal, Comparator.<BigDecimal>reverseOrder())
                .thenComparing(AgentMetrics::getAgentId));
        List<AgentMetrics> kept = new ArrayList<>(sorted.subList(0, Math.max(0, maxLabelSets - 1)));
        AgentMetrics other = null;
        for (AgentMetrics rest : sorted.subList(kept.size(), sorted.size())) {
            other = other == null ? rest : io.agentoutcomes.topology.analytics.MetricsAggregator.merge(other, rest);
        }
        other = io.agentoutcomes.topology.analytics.MetricsAggregator.withPercentiles(other);
        other.setAgentId(OTHER);
        other.setModel(OTHER);
        other.setProvider(OTHER);
        kept.add(other);
        return kept;
    }
}
