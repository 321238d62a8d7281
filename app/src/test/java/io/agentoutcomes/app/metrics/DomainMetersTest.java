package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.http.query.QueryUnavailable;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.DurationSketch;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.AbstractHistogram;
import org.junit.jupiter.api.Test;

/** The domain meters as Prometheus sees them: the registry's own scrape model, names, types and label values. */
class DomainMetersTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private static AgentMetrics totals(String agent, String cost) {
        return totals(agent, "m", "p", cost);
    }

    private static AgentMetrics totals(String agent, String model, String provider, String cost) {
        AgentMetrics metrics = MetricsAggregator.empty(Dimensions.of(agent, model, provider));
        metrics.setCostTotal(new BigDecimal(cost).setScale(12));
        metrics.setRetries(1);
        return metrics;
    }

    private MetricSnapshot snapshot(String prometheusName) {
        return registry.getPrometheusRegistry().scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().equals(prometheusName)).findFirst().orElseThrow();
    }

    /** Counter values by the value of one label, summed over the others. */
    private Map<String, Double> counter(String prometheusName, String label) {
        MetricSnapshot snapshot = snapshot(prometheusName);
        assertThat(snapshot).isInstanceOf(CounterSnapshot.class);
        return ((CounterSnapshot) snapshot).getDataPoints().stream().collect(Collectors.groupingBy(
                p -> p.getLabels().get(label), Collectors.summingDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)));
    }

    @Test
    void labelSetsBeyondTheCapAreSummedUnderOther() {
        List<AgentMetrics> all = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            all.add(totals("agent-" + i, i + ".000001"));
        }
        DomainMeters meters = new DomainMeters(registry, () -> all, 3);

        meters.refresh();

        assertThat(counter("agent_outcomes_retries", "gen_ai_agent_id"))
                .isEqualTo(Map.of("agent-5", 1.0, "agent-4", 1.0, DomainMeters.OTHER, 3.0));
        assertThat(counter("agent_outcomes_cost_usd", "gen_ai_agent_id").get(DomainMeters.OTHER)).isEqualTo(6.000003);
    }

    @Test
    void seed000TheConfidenceDistributionPerAgentIsACounter() {
        AgentMetrics photo = totals("photo-analyzer", "0.1");
        photo.setConfidenceBuckets(Map.of("0.6-0.7", 2L, "0.9-1.0", 5L));
        DomainMeters meters = new DomainMeters(registry, () -> List.of(photo), 10);

        meters.refresh();

        assertThat(counter("agent_outcomes_confidence_results", "confidence_range"))
                .isEqualTo(Map.of("0.6-0.7", 2.0, "0.9-1.0", 5.0));
    }

    @Test
    void inputTokensIncludeCacheReadsAndWritesWithTheCacheSeriesBesideThem() {
        AgentMetrics claude = totals("reviewer", "claude-sonnet-4", "anthropic", "0.5");
        claude.setInputTokens(100);
        claude.setCacheReadTokens(1_000);
        claude.setCacheWriteTokens(20);
        claude.setOutputTokens(7);
        claude.setTotalTokens(1_127);
        DomainMeters meters = new DomainMeters(registry, () -> List.of(claude), 10);

        meters.refresh();

        Map<String, Double> tokens = counter("agent_outcomes_tokens", "gen_ai_token_type");
        assertThat(tokens).isEqualTo(Map.of("input", 1_120.0, "output", 7.0, "unknown", 0.0));
        assertThat(tokens.values().stream().mapToDouble(Double::doubleValue).sum()).as("sum() is the total, once")
                .isEqualTo(claude.getTotalTokens());
        assertThat(counter("agent_outcomes_cache_read_input_tokens", "gen_ai_provider_name")).isEqualTo(Map.of("anthropic", 1_000.0));
        assertThat(counter("agent_outcomes_cache_write_input_tokens", "gen_ai_request_model"))
                .isEqualTo(Map.of("claude-sonnet-4", 20.0));
    }

    @Test
    void reasoningTokensAreTheirOwnCounterBesideTheOutputTheyArePartOf() {
        AgentMetrics o3 = totals("planner", "o3-mini", "openai", "0.5");
        o3.setInputTokens(1_000);
        o3.setOutputTokens(1_200);
        o3.setReasoningTokens(1_024);
        o3.setTotalTokens(2_200);
        AgentMetrics gemini = totals("planner", "gemini-2.5-flash", "gemini", "0.1");
        gemini.setInputTokens(11);
        gemini.setOutputTokens(12);
        gemini.setReasoningTokens(7);
        gemini.setTotalTokens(23);
        DomainMeters meters = new DomainMeters(registry, () -> List.of(o3, gemini), 10);

        meters.refresh();

        // not a gen_ai.token.type: the conventions' types are input and output, and reasoning is a part of output
        Map<String, Double> tokens = counter("agent_outcomes_tokens", "gen_ai_token_type");
        assertThat(tokens).isEqualTo(Map.of("input", 1_011.0, "output", 1_212.0, "unknown", 0.0));
        assertThat(tokens.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(2_223.0);
        assertThat(counter("agent_outcomes_reasoning_output_tokens", "gen_ai_provider_name"))
                .isEqualTo(Map.of("openai", 1_024.0, "gcp.gemini", 7.0));
    }

    @Test
    void tokensOfResultsThatReportOnlyATotalAreTheirOwnTokenTypeSoTheTypesAddUpToTheTotal() {
        // 100 + 7 reported by type (plus 20 cache writes); 5 000 by results that report only a total (seed 000 tokensUsed)
        AgentMetrics m = totals("vat-agent", "claude-3-5-haiku", "anthropic", "0.5");
        m.setInputTokens(100);
        m.setCacheWriteTokens(20);
        m.setOutputTokens(7);
        m.setTotalTokens(5_127);
        DomainMeters meters = new DomainMeters(registry, () -> List.of(m), 10);

        meters.refresh();

        Map<String, Double> tokens = counter("agent_outcomes_tokens", "gen_ai_token_type");
        assertThat(tokens).isEqualTo(Map.of("input", 120.0, "output", 7.0, "unknown", 5_000.0));
        assertThat(tokens.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(m.getTotalTokens());
    }

    @Test
    void everyGenAiSeriesNamesItsOperationAgentsInvokeAgentWorkflowNodesInvokeWorkflow() {
        AgentMetrics agent = totals("summarizer", "gpt-4o", "openai", "1");
        AgentMetrics workflow = totals("_workflow", "unknown", "unknown", "0");
        AbstractHistogram sketch = DurationSketch.empty();
        agent.setDurationSumMs(DurationSketch.record(sketch, 40));
        agent.setDurationSketch(DurationSketch.encode(sketch));
        agent.setDurationCount(1);
        DomainMeters meters = new DomainMeters(registry, () -> List.of(agent, workflow), 10);

        meters.refresh();

        assertThat(counter("agent_outcomes_retries", "gen_ai_operation_name"))
                .isEqualTo(Map.of("invoke_agent", 1.0, "invoke_workflow", 1.0));
        assertThat(registry.getPrometheusRegistry().scrape().stream()
                .filter(s -> s.getMetadata().getPrometheusName().startsWith("agent_outcomes_"))
                .flatMap(s -> s.getDataPoints().stream()))
                .isNotEmpty()
                .allSatisfy(point -> assertThat(point.getLabels().get("gen_ai_operation_name")).isNotNull());
    }

    @Test
    void theWorkflowNodesKeepTheirSeriesBesideTheCap() {
        List<AgentMetrics> all = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            all.add(totals("agent-" + i, i + ".0"));
        }
        all.add(totals("_workflow", "unknown", "unknown", "0"));
        DomainMeters meters = new DomainMeters(registry, () -> all, 3);

        meters.refresh();

        assertThat(counter("agent_outcomes_retries", "gen_ai_agent_id"))
                .isEqualTo(Map.of("agent-4", 1.0, "agent-3", 1.0, DomainMeters.OTHER, 2.0, "_workflow", 1.0));
    }

    @Test
    void providersAreNamedByTheirWellKnownGenAiValueAndSpellingsOfOneProviderAreOneSeries() {
        AgentMetrics azure = totals("a", "gpt-4o", "azure", "1");
        AgentMetrics azureOpenAi = totals("a", "gpt-4o", "Azure-OpenAI", "2");
        AgentMetrics gemini = totals("a", "gemini-2.5-pro", "gemini", "4");
        AgentMetrics bedrock = totals("a", "claude", "bedrock", "8");
        DomainMeters meters = new DomainMeters(registry, () -> List.of(azure, azureOpenAi, gemini, bedrock), 10);

        meters.refresh();

        assertThat(counter("agent_outcomes_cost_usd", "gen_ai_provider_name"))
                .isEqualTo(Map.of("azure.ai.openai", 3.0, "gcp.gemini", 4.0, "aws.bedrock", 8.0));
    }

    @Test
    void failuresCarryTheirErrorTypeAndCostPartsAreNoTotal() {
        AgentMetrics m = totals("a", "0.010000000000");
        m.setCompletions(Map.of("SUCCESS", 3L, "RETRYABLE_FAILURE", 2L));
        m.setFailuresByErrorCode(Map.of("llm-rate-limit", 2L));
        m.setCostInput(new BigDecimal("0.004000000000"));
        DomainMeters meters = new DomainMeters(registry, () -> List.of(m), 10);

        meters.refresh();

        assertThat(counter("agent_outcomes_failures", "error_type")).isEqualTo(Map.of("llm-rate-limit", 2.0));
        assertThat(counter("agent_outcomes_results", "result_type")).isEqualTo(Map.of("SUCCESS", 3.0, "RETRYABLE_FAILURE", 2.0));
        assertThat(counter("agent_outcomes_cost_part_usd", "part")).isEqualTo(Map.of("input", 0.004, "output", 0.0,
                "cache_read", 0.0, "cache_write", 0.0));
        assertThat(registry.scrape()).contains("# TYPE agent_outcomes_cost_usd_total counter")
                .doesNotContain("part=\"total\"").doesNotContain("kind=\"total\"");
    }

    @Test
    void durationsAreAHistogramInSecondsWithAnExactSum() {
        AgentMetrics m = totals("a", "1");
        AbstractHistogram sketch = DurationSketch.empty();
        long sum = 0;
        for (long ms : new long[] {3, 40, 40, 700, 2_000, 90_000}) {
            sum += DurationSketch.record(sketch, ms);
        }
        m.setDurationSketch(DurationSketch.encode(sketch));
        m.setDurationCount(6);
        m.setDurationSumMs(sum);
        DomainMeters meters = new DomainMeters(registry, () -> List.of(m), 10);

        meters.refresh();

        HistogramSnapshot.HistogramDataPointSnapshot point = ((HistogramSnapshot) snapshot("agent_outcomes_duration_seconds"))
                .getDataPoints().get(0);
        assertThat(point.getCount()).isEqualTo(6);
        assertThat(point.getSum()).isEqualTo(92.783);
        assertThat(point.getLabels().get("gen_ai_agent_id")).isEqualTo("a");
        String scrape = registry.scrape();
        assertThat(scrape).contains("# TYPE agent_outcomes_duration_seconds histogram")
                .contains("agent_outcomes_duration_seconds_bucket{gen_ai_agent_id=\"a\",gen_ai_operation_name=\"invoke_agent\","
                        + "gen_ai_provider_name=\"p\",gen_ai_request_model=\"m\",tenant=\"unknown\",le=\"0.005\"} 1")
                .contains("le=\"0.05\"} 3").contains("le=\"1.0\"} 4").contains("le=\"60.0\"} 5").contains("le=\"120.0\"} 6")
                .contains("le=\"+Inf\"} 6").doesNotContain("quantile");
    }

    @Test
    void aTotalThatCannotBeReadKeepsTheLastValues() {
        List<AgentMetrics> rows = new ArrayList<>(List.of(totals("a", "1")));
        boolean[] unavailable = {false};
        DomainMeters meters = new DomainMeters(registry, () -> {
            if (unavailable[0]) {
                throw new QueryUnavailable("rebalancing");
            }
            return rows;
        }, 10);
        meters.refresh();
        unavailable[0] = true;

        meters.refresh();

        assertThat(counter("agent_outcomes_retries", "gen_ai_agent_id")).isEqualTo(Map.of("a", 1.0));
    }

    @Test
    void aLabelSetThatLeavesThisInstanceLeavesItsMeters() {
        List<AgentMetrics> rows = new ArrayList<>(List.of(totals("a", "1"), totals("b", "1")));
        DomainMeters meters = new DomainMeters(registry, () -> rows, 10);
        meters.refresh();
        rows.remove(1);

        meters.refresh();

        assertThat(counter("agent_outcomes_retries", "gen_ai_agent_id")).isEqualTo(Map.of("a", 1.0));
    }

    private static AgentMetrics attributed(String tenant, String team, String user, String tag, String cost) {
        AgentMetrics metrics = MetricsAggregator.empty(Dimensions.of("agent", "m", "p", tenant, team, user, tag));
        metrics.setCostTotal(new BigDecimal(cost).setScale(12));
        metrics.setRetries(1);
        return metrics;
    }

    @Test
    void tenantAndTeamLabelTheSeriesWhenTheyKeyTheWindowsAndUserAndTagNever() {
        List<AgentMetrics> all = List.of(attributed("acme", "search", "u-1", "batch", "1"),
                attributed("acme", "search", "u-2", "eu", "2"), attributed("globex", "search", "u-3", "batch", "4"));
        DomainMeters meters = new DomainMeters(registry, () -> all, 10, EnumSet.allOf(Dimension.class));

        meters.refresh();

        assertThat(counter("agent_outcomes_cost_usd", "tenant")).isEqualTo(Map.of("acme", 3.0, "globex", 4.0));
        CounterSnapshot cost = (CounterSnapshot) snapshot("agent_outcomes_cost_usd");
        assertThat(cost.getDataPoints()).hasSize(2).allSatisfy(point -> {
            assertThat(point.getLabels().get("team")).isEqualTo("search");
            assertThat(point.getLabels().contains("user_id")).isFalse();
            assertThat(point.getLabels().contains("tag")).isFalse();
        });
    }

    @Test
    void theCapCountsLabelSetsSoAThousandUsersOfOneTenantAreOneSeries() {
        List<AgentMetrics> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(attributed("acme", null, "u-" + i, null, "1"));
        }
        all.add(attributed("globex", null, "u-9", null, "10"));
        all.add(attributed("initech", null, "u-9", null, "0.5"));
        DomainMeters meters = new DomainMeters(registry, () -> all, 2, EnumSet.of(Dimension.TENANT, Dimension.USER));

        meters.refresh();

        assertThat(counter("agent_outcomes_cost_usd", "tenant")).isEqualTo(Map.of("globex", 10.0, DomainMeters.OTHER, 5.5));
        assertThat(counter("agent_outcomes_retries", "tenant")).isEqualTo(Map.of("globex", 1.0, DomainMeters.OTHER, 6.0));
    }

    @Test
    void byDefaultTheTenantLabelsEverySeriesAndATotalWrittenBeforeItReadsUnknown() {
        AgentMetrics before = totals("agent-1", "0.5");
        AgentMetrics acme = attributed("acme", null, null, null, "0.25");
        DomainMeters meters = new DomainMeters(registry, () -> List.of(before, acme), 10);

        meters.refresh();

        assertThat(counter("agent_outcomes_cost_usd", "tenant")).isEqualTo(Map.of("unknown", 0.5, "acme", 0.25));
        assertThat(((CounterSnapshot) snapshot("agent_outcomes_cost_usd")).getDataPoints())
                .allSatisfy(point -> assertThat(point.getLabels().contains("team")).isFalse());
    }
}
