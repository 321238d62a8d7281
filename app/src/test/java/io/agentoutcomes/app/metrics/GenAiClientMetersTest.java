package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The GenAI conventions' client metrics on {@code /metrics}, from the same classified outcomes as the domain meters:
 * the exposition lines as Prometheus reads them, and each token series' sum against {@code agent_outcomes_tokens_total}.
 */
class GenAiClientMetersTest {
    private static final String CLAUDE = "gen_ai_operation_name=\"invoke_agent\",gen_ai_provider_name=\"anthropic\","
            + "gen_ai_request_model=\"claude-sonnet-4\"";
    private static final String GPT = "gen_ai_operation_name=\"invoke_agent\",gen_ai_provider_name=\"openai\","
            + "gen_ai_request_model=\"gpt-4o\"";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private static Usage usage(Long input, Long cacheRead, Long cacheWrite, Long output, Long total) {
        return Usage.newBuilder().setInputTokens(input).setCacheReadTokens(cacheRead).setCacheWriteTokens(cacheWrite)
                .setOutputTokens(output).setTotalTokens(total).build();
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

    /** Four results: two Anthropic agents of one model, an OpenAI result reporting only a total and failing, one with no usage. */
    private List<AgentMetrics> aggregates() {
        Figures.Tally tally = new Figures.Tally();
        tally.add(outcome("reviewer", "Anthropic", "claude-sonnet-4", usage(100L, 1_000L, 20L, 7L, null), 1_200,
                ResultType.SUCCESS, null));
        tally.add(outcome("planner", "anthropic", "claude-sonnet-4", usage(3L, null, null, 300L, null), 50,
                ResultType.SUCCESS, null));
        tally.add(outcome("coder", "openai", "gpt-4o", usage(null, null, null, null, 42L), 90_000,
                ResultType.RETRYABLE_FAILURE, "RATE_LIMITED"));
        tally.add(outcome("coder", "openai", "gpt-4o", null, 15, ResultType.SUCCESS, null));
        return List.copyOf(tally.aggregates());
    }

    private String scrape(List<AgentMetrics> totals) {
        DomainMeters domain = new DomainMeters(registry, () -> totals, 50);
        GenAiClientMeters genAi = new GenAiClientMeters(registry);
        domain.refresh().ifPresent(genAi::refresh);
        return registry.scrape();
    }

    @Test
    void tokenUsageIsAHistogramByTokenTypeAtTheConventionsBoundaries() {
        String text = scrape(aggregates());

        // input 1 120 (100 uncached + 1 000 cache reads + 20 writes) and 3; output 7 and 300
        assertThat(lines(text, "gen_ai_client_token_usage", CLAUDE + ",gen_ai_token_type=\"input\"")).containsExactly(
                "_bucket le=1.0 0", "_bucket le=4.0 1", "_bucket le=16.0 1", "_bucket le=64.0 1", "_bucket le=256.0 1",
                "_bucket le=1024.0 1", "_bucket le=4096.0 2", "_bucket le=16384.0 2", "_bucket le=65536.0 2",
                "_bucket le=262144.0 2", "_bucket le=1048576.0 2", "_bucket le=4194304.0 2", "_bucket le=1.6777216E7 2",
                "_bucket le=6.7108864E7 2", "_bucket le=+Inf 2", "_count 2", "_sum 1123.0");
        assertThat(lines(text, "gen_ai_client_token_usage", CLAUDE + ",gen_ai_token_type=\"output\""))
                .contains("_bucket le=4.0 0", "_bucket le=16.0 1", "_bucket le=256.0 1", "_bucket le=1024.0 2", "_count 2",
                        "_sum 307.0");
        // a result that reports only a total: its own type, as on agent_outcomes_tokens_total
        assertThat(lines(text, "gen_ai_client_token_usage", GPT + ",gen_ai_token_type=\"unknown\""))
                .contains("_bucket le=16.0 0", "_bucket le=64.0 1", "_count 1", "_sum 42.0");
        // types a result did not report have no series; the conventions' attributes only (no agent, no tenant)
        assertThat(text.lines().filter(l -> l.startsWith("gen_ai_client_")))
                .hasSize(3 * 17 + 3 * 17).noneMatch(l -> l.contains("gen_ai_agent_id") || l.contains("tenant"));
    }

    @Test
    void eachTokenSeriesSumIsTheTokenCounterOfItsTypeOnTheSameRecords() {
        String text = scrape(aggregates());

        Map<String, Double> counter = byProviderAndType(text, "agent_outcomes_tokens_total\\{[^}]*");
        Map<String, Double> histogramSums = byProviderAndType(text, "gen_ai_client_token_usage_sum\\{[^}]*");
        counter.values().removeIf(value -> value == 0.0);
        assertThat(histogramSums).isEqualTo(counter)
                .isEqualTo(Map.of("anthropic/input", 1_123.0, "anthropic/output", 307.0, "openai/unknown", 42.0));
    }

    @Test
    void operationDurationIsInSecondsWithErrorTypeOnFailuresAndAddsUpToTheDurationHistogram() {
        String text = scrape(aggregates());

        assertThat(lines(text, "gen_ai_client_operation_duration_seconds", CLAUDE)).containsExactly(
                "_bucket le=0.01 0", "_bucket le=0.02 0", "_bucket le=0.04 0", "_bucket le=0.08 1", "_bucket le=0.16 1",
                "_bucket le=0.32 1", "_bucket le=0.64 1", "_bucket le=1.28 2", "_bucket le=2.56 2", "_bucket le=5.12 2",
                "_bucket le=10.24 2", "_bucket le=20.48 2", "_bucket le=40.96 2", "_bucket le=81.92 2", "_bucket le=+Inf 2",
                "_count 2", "_sum 1.25");
        assertThat(lines(text, "gen_ai_client_operation_duration_seconds", GPT))
                .contains("_bucket le=0.01 0", "_bucket le=0.02 1", "_count 1", "_sum 0.015");
        assertThat(lines(text, "gen_ai_client_operation_duration_seconds", "error_type=\"RATE_LIMITED\"," + GPT))
                .contains("_bucket le=81.92 0", "_bucket le=+Inf 1", "_count 1", "_sum 90.0");
        assertThat(sumOf(text, "gen_ai_client_operation_duration_seconds_count")).isEqualTo(4.0)
                .isEqualTo(sumOf(text, "agent_outcomes_duration_seconds_count"));
        assertThat(sumOf(text, "gen_ai_client_operation_duration_seconds_sum")).isEqualTo(91.265)
                .isEqualTo(sumOf(text, "agent_outcomes_duration_seconds_sum"));
    }

    @Test
    void totalsWrittenBeforeTheHistogramsExistedAddNoSeries() {
        AgentMetrics before = aggregates().get(0);
        before.setGenAiHistograms(Map.of());

        String text = scrape(List.of(before));

        assertThat(text).contains("agent_outcomes_tokens_total{").doesNotContain("gen_ai_client_token_usage_bucket")
                .doesNotContain("gen_ai_client_operation_duration_seconds_bucket");
    }

    /** A series' lines as "suffix le=bound value" (le only on buckets), in the exposition's order. */
    private static List<String> lines(String text, String name, String labels) {
        Pattern line = Pattern.compile("^" + name + "(_bucket|_count|_sum)\\{" + Pattern.quote(labels)
                + "(?:,le=\"([^\"]+)\")?\\} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(text);
        List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            found.add(m.group(1) + (m.group(2) == null ? "" : " le=" + m.group(2)) + " " + m.group(3));
        }
        return found;
    }

    private static Map<String, Double> byProviderAndType(String text, String prefix) {
        Map<String, Double> sums = new TreeMap<>();
        Matcher m = Pattern.compile("^" + prefix + "\\} (\\S+)$", Pattern.MULTILINE).matcher(text);
        while (m.find()) {
            String series = m.group();
            String key = label(series, "gen_ai_provider_name") + "/" + label(series, "gen_ai_token_type");
            sums.merge(key, Double.parseDouble(m.group(1)), Double::sum);
        }
        return sums;
    }

    private static String label(String series, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(series);
        return m.find() ? m.group(1) : "";
    }

    private static double sumOf(String text, String name) {
        Matcher m = Pattern.compile("^" + name + "\\{[^}]*\\} (\\S+)$", Pattern.MULTILINE).matcher(text);
        return Arrays.stream(m.results().map(r -> r.group(1)).toArray(String[]::new)).mapToDouble(Double::parseDouble).sum();
    }
}
