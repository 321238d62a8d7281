package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /metrics} of a running service after some traffic (successes with cached tokens from two providers,
 * retried failures delivered to retry-ready, a dead letter): Prometheus names and types, the OpenTelemetry GenAI labels,
 * and every query of the Grafana dashboard and every alert rule's expression (parsed by Prometheus' own PromQL grammar,
 * {@code @prometheus-io/lezer-promql}) naming only metrics and labels that are there; the dashboard's variables.
 */
class MetricsEndpointTest {
    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @RegisterExtension
    static final TestBroker kafka = new TestBroker();
    private static AgentOutcomesService service;
    private static Path dataDir;
    /** Metric family name to its TYPE. */
    private static final Map<String, String> types = new TreeMap<>();
    /** Sample name (with _total, _bucket, ...) to the label sets of its samples. */
    private static final Map<String, List<Map<String, String>>> samples = new TreeMap<>();
    /** The rejection counters on the first scrape, before any input. */
    private static List<Map<String, String>> rejectedAtStart;
    private static String prefix;

    @BeforeAll
    static void startAndLoad() throws Exception {
        dataDir = Files.createTempDirectory("metrics-endpoint");
        prefix = "metrics-" + System.nanoTime() + ".";
        AppConfig config = TestServiceConfig.on(kafka, dataDir, 2, ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix, "backoff.base.llm-timeout.ms", "500", "analytics.flush.interval.ms", "200",
                // a budget the load crosses at every threshold: openai's six results cost more than a millionth of a dollar
                "budget.openai-daily.dimension", "provider", "budget.openai-daily.value", "openai",
                "budget.openai-daily.limit.usd", "0.000001",
                // a request too large for gpt-4o-mini is retried on gpt-4.1: a retry moved to a fallback
                "fallback.context.openai/gpt-4o-mini", "openai/gpt-4.1",
                // every processor node timed (off by default)
                "metrics.stage.timings.enabled", "true");
        service = AgentOutcomesService.start(config);
        waitForCondition(() -> get("/health/ready").statusCode() == 200, 60_000, "the service ready");
        scrape();
        rejectedAtStart = List.copyOf(samples.getOrDefault("agent_outcomes_rejected_input_total", List.of()));
        List<AgentResult> load = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            load.add(result("ok-" + i, "summarizer", "gpt-4o-mini", "openai", Success.newBuilder().build(), 100, 40, 0, 10));
        }
        for (int i = 0; i < 3; i++) {
            load.add(result("claude-" + i, "reviewer", "claude-sonnet-4", "anthropic", Success.newBuilder().build(), 50, 200, 10, 5));
        }
        for (int i = 0; i < 2; i++) {
            load.add(result("timeout-" + i, "reviewer", "claude-sonnet-4", "anthropic", failure("llm-timeout"), 50, 0, 0, 0));
        }
        load.add(result("denied", "summarizer", "gpt-4o-mini", "openai", failure("auth-failed"), 0, 0, 0, 0));
        AgentResult tooLarge = result("too-large", "summarizer", "gpt-4o-mini", "openai", failure("llm-token-limit"), 0, 0, 0, 0);
        tooLarge.getExecution().setDurationMs(null);
        load.add(tooLarge);
        // seed 000 tokensUsed: a total, no type
        AgentResult totalOnly = result("vat-0", "vat-agent", "claude-3-5-haiku", "anthropic", Success.newBuilder().build(),
                0, 0, 0, 0);
        totalOnly.getExecution().setUsage(Usage.newBuilder().setTotalTokens(500L).build());
        load.add(totalOnly);
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
        try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all"), new StringSerializer(),
                AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
            for (AgentResult result : load) {
                producer.send(new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS, result.getTaskId(), result)).get();
            }
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS_JSON, "task-bad", "{\"status\": ")).get();
        }
        waitForCondition(() -> {
            scrape();
            return sum("agent_outcomes_results_total") == load.size() && sum("agent_outcomes_budget_alerts_total") == 3
                    && sum("kafka_stream_topic_records_produced_total", "topic", prefix + TopicNames.RETRY_READY) >= 3;
        }, 60_000, "every result counted and the three retries delivered");
    }

    @AfterAll
    static void stop() throws Exception {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void budgetAlertsAreCountedByBudgetAndThresholdAndTheSpendAgainstTheLimitIsShown() {
        assertThat(types).containsEntry("agent_outcomes_budget_alerts_total", "counter")
                .containsEntry("agent_outcomes_budget_spend_usd", "gauge").containsEntry("agent_outcomes_budget_limit_usd", "gauge");
        for (String threshold : List.of("50", "80", "100")) {
            assertThat(samples.get("agent_outcomes_budget_alerts_total"))
                    .filteredOn(labels -> threshold.equals(labels.get("threshold")))
                    .singleElement().satisfies(labels -> assertThat(labels).containsEntry("budget", "openai-daily")
                            .containsEntry("__value__", "1.0"));
        }
        assertThat(samples.get("agent_outcomes_budget_spend_usd")).singleElement().satisfies(labels -> assertThat(labels)
                .containsEntry("budget", "openai-daily").containsEntry("value", "openai"));
        assertThat(sum("agent_outcomes_budget_spend_usd")).isGreaterThan(0.000001);
    }

    /** Every processor node timed through the service's processor wrapper (metrics.stage.timings.enabled, turned on here). */
    @Test
    void eachProcessorNodeCountsItsCallsAndItsOwnTime() throws InterruptedException {
        // a source-named node carries its topic's name, prefix included
        String jsonNormalizer = "normalize-" + prefix + TopicNames.AGENT_RESULTS_JSON;
        // the timers outlive a garbage collection (Micrometer holds a function timer's object weakly)
        System.gc();
        waitForCondition(() -> {
            scrape();
            return sum("agent_outcomes_stage_process_seconds_count", "node", jsonNormalizer) == 1;
        }, 60_000, () -> "the JSON record's normalization counted: " + samples.get("agent_outcomes_stage_process_seconds_count"));
        assertThat(types).containsEntry("agent_outcomes_stage_process_seconds", "summary");
        assertThat(sum("agent_outcomes_stage_process_seconds_count", "node", "agent-results-accept-attribute-price"))
                .as("one intake call per result on agent-results").isEqualTo(14);
        assertThat(sum("agent_outcomes_stage_process_seconds_count", "node", jsonNormalizer))
                .as("one call for the one JSON record").isEqualTo(1);
        assertThat(sum("agent_outcomes_stage_process_seconds_sum", "node", "agent-results-accept-attribute-price")).isPositive();
    }

    @Test
    void countersEndInTotalAndNoLabelValueIsATotalBesideItsParts() {
        types.forEach((family, type) -> {
            if (type.equals("counter")) {
                assertThat(family).as("a counter family").endsWith("_total");
            }
        });
        assertThat(types).containsEntry("agent_outcomes_results_total", "counter")
                .containsEntry("agent_outcomes_failures_total", "counter")
                .containsEntry("agent_outcomes_tokens_total", "counter")
                .containsEntry("agent_outcomes_cache_read_input_tokens_total", "counter")
                .containsEntry("agent_outcomes_cache_write_input_tokens_total", "counter")
                .containsEntry("agent_outcomes_cost_usd_total", "counter")
                .containsEntry("agent_outcomes_cost_part_usd_total", "counter")
                .containsEntry("agent_outcomes_retries_total", "counter")
                .containsEntry("agent_outcomes_dead_letters_total", "counter")
                .containsEntry("agent_outcomes_rejected_input_total", "counter")
                .containsEntry("agent_outcomes_duration_seconds", "histogram")
                .containsEntry("agent_outcomes_retries_pending", "gauge")
                .containsEntry("agent_outcomes_retry_overdue_seconds", "gauge");
        samples.forEach((name, labelSets) -> {
            if (name.startsWith("agent_outcomes_")) {
                assertThat(labelSets).as(name).allSatisfy(labels -> {
                    assertThat(labels).doesNotContainKeys("quantile", "kind", "agent", "model", "provider");
                    assertThat(labels.values()).doesNotContain("total");
                });
            }
        });
        assertThat(samples).doesNotContainKeys("agent_outcomes_duration_ms", "agent_outcomes_results", "agent_outcomes_tokens");
    }

    @Test
    void tokenSeriesFollowTheOpenTelemetryGenAiConventions() {
        // input includes cache reads and writes, whatever the provider's own convention: OpenAI's 100 input tokens
        // already include its 40 cached ones; Anthropic's 50 exclude its 200 + 10
        assertThat(sum("agent_outcomes_tokens_total", "gen_ai_token_type", "input")).isEqualTo(6 * 100 + 3 * 260 + 2 * 50);
        assertThat(sum("agent_outcomes_cache_read_input_tokens_total", "gen_ai_provider_name", "openai")).isEqualTo(240);
        assertThat(sum("agent_outcomes_tokens_total", "gen_ai_token_type", "output")).isEqualTo(6 * 10 + 3 * 5);
        assertThat(sum("agent_outcomes_cache_read_input_tokens_total", "gen_ai_provider_name", "anthropic")).isEqualTo(600);
        assertThat(sum("agent_outcomes_cache_write_input_tokens_total", "gen_ai_request_model", "claude-sonnet-4")).isEqualTo(30);
        assertThat(sum("agent_outcomes_failures_total", "error_type", "llm-timeout")).isEqualTo(2);
        assertThat(sum("agent_outcomes_failures_total", "error_type", "auth-failed")).isEqualTo(1);
        // the result that reports only a total keeps its tokens, under their own type: sum() is every token
        assertThat(sum("agent_outcomes_tokens_total", "gen_ai_token_type", "unknown")).isEqualTo(500);
        assertThat(sum("agent_outcomes_tokens_total", "gen_ai_request_model", "claude-3-5-haiku")).isEqualTo(500);
        assertThat(sum("agent_outcomes_duration_seconds_count")).isEqualTo(13);
        assertThat(sum("agent_outcomes_duration_seconds_sum")).isCloseTo(13 * 0.25, Offset.offset(1e-9));
        assertThat(samples.get("agent_outcomes_tokens_total")).allSatisfy(labels -> assertThat(labels)
                .containsKeys("gen_ai_provider_name", "gen_ai_request_model", "gen_ai_agent_id", "gen_ai_token_type"));
    }

    @Test
    void theConventionsClientHistogramsAgreeWithTheCountersOnTheSameResults() {
        assertThat(types).containsEntry("gen_ai_client_token_usage", "histogram")
                .containsEntry("gen_ai_client_operation_duration_seconds", "histogram");
        for (String type : List.of("input", "output", "unknown")) {
            assertThat(sum("gen_ai_client_token_usage_sum", "gen_ai_token_type", type)).as(type)
                    .isEqualTo(sum("agent_outcomes_tokens_total", "gen_ai_token_type", type));
        }
        assertThat(sum("gen_ai_client_token_usage_sum", "gen_ai_token_type", "input")).isEqualTo(6 * 100 + 3 * 260 + 2 * 50);
        assertThat(sum("gen_ai_client_token_usage_count", "gen_ai_token_type", "unknown")).isEqualTo(1);
        assertThat(sum("gen_ai_client_operation_duration_seconds_count")).isEqualTo(13)
                .isEqualTo(sum("agent_outcomes_duration_seconds_count"));
        assertThat(sum("gen_ai_client_operation_duration_seconds_sum")).isCloseTo(13 * 0.25, Offset.offset(1e-9));
        assertThat(sum("gen_ai_client_operation_duration_seconds_count", "error_type", "llm-timeout")).isEqualTo(2);
        assertThat(samples.get("gen_ai_client_token_usage_count")).allSatisfy(labels -> assertThat(labels.keySet())
                .containsExactlyInAnyOrder("gen_ai_operation_name", "gen_ai_provider_name", "gen_ai_request_model",
                        "gen_ai_token_type", "__value__"));
    }

    @Test
    void everyGenAiSeriesNamesItsOperation() {
        samples.forEach((name, labelSets) -> {
            if (name.startsWith("agent_outcomes_")) {
                labelSets.stream().filter(labels -> labels.containsKey("gen_ai_agent_id")).forEach(labels ->
                        assertThat(labels).as(name).containsEntry("gen_ai_operation_name", "invoke_agent"));
            }
        });
        assertThat(samples.get("agent_outcomes_tokens_total")).isNotEmpty().allSatisfy(labels ->
                assertThat(labels).containsEntry("gen_ai_operation_name", "invoke_agent"));
    }

    @Test
    void rejectionsAreOneCounterFamilyLabelledByReasonThereFromTheStart() throws Exception {
        List<String> reasons = List.of("unparseable-json", "unknown-dialect", "missing-field", "wrong-type",
                "out-of-range", "too-large", "invalid-cloudevent", "unparseable-protobuf");
        assertThat(rejectedAtStart).as("every reason at 0 before any input").hasSize(reasons.size())
                .allSatisfy(labels -> assertThat(labels.get("__value__")).isEqualTo("0.0"));
        assertThat(rejectedAtStart.stream().map(labels -> labels.get("reason")))
                .containsExactlyInAnyOrderElementsOf(reasons);
        // the counters outlive a garbage collection (Micrometer holds a function counter's object weakly)
        System.gc();
        waitForCondition(() -> {
            scrape();
            return sum("agent_outcomes_rejected_input_total", "reason", "unparseable-json") == 1;
        }, 60_000, "the unparseable record counted");
        assertThat(sum("agent_outcomes_rejected_input_total")).isEqualTo(1);
        assertThat(samples.keySet()).noneMatch(name -> name.matches(".*rejected_[a-z_]+_(json|dialect|field|type|range|large|cloudevent)_total"));
    }

    @Test
    void everyDashboardQueryNamesOnlyMetricsAndLabelsOnMetrics() throws Exception {
        JsonNode queries = selectors(dashboard());
        assertThat(queries.size()).as("queries in the dashboard").isGreaterThanOrEqualTo(8);
        Set<String> panels = new TreeSet<>();
        for (JsonNode query : queries) {
            panels.add(query.get("panel").asText());
            assertOnMetrics(query, Set.of());
        }
        assertThat(panels).contains("Throughput", "Outcomes by type", "Retries pending", "Retries scheduled and delivered",
                "Retry lateness", "Dead letters by reason", "Cost by model", "Tokens by model", "Consumer lag",
                "Rejected input by reason");
    }

    @Test
    void theDashboardsVariablesNarrowEveryPanelOfTheGenAiMeters() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(dashboard().toFile());
        Map<String, JsonNode> variables = new TreeMap<>();
        dashboard.get("templating").get("list").forEach(variable -> variables.put(variable.get("name").asText(), variable));
        Map<String, String> labelOf = Map.of("agent", "gen_ai_agent_id", "model", "gen_ai_request_model",
                "provider", "gen_ai_provider_name", "tenant", "tenant");

        assertThat(variables).containsOnlyKeys("datasource", "agent", "model", "provider", "tenant");
        labelOf.forEach((name, label) -> {
            JsonNode variable = variables.get(name);
            String query = "label_values(agent_outcomes_results_total, " + label + ")";
            assertThat(variable.get("type").asText()).isEqualTo("query");
            assertThat(variable.get("definition").asText()).isEqualTo(query);
            assertThat(variable.get("query").get("query").asText()).isEqualTo(query);
            assertThat(variable.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
            // All is .*, which also matches a series without the label (tenant, when analytics.dimensions leaves it out)
            assertThat(variable.get("includeAll").asBoolean()).as(name).isTrue();
            assertThat(variable.get("multi").asBoolean()).as(name).isTrue();
            assertThat(variable.get("allValue").asText()).as(name).isEqualTo(".*");
            assertThat(samples.get("agent_outcomes_results_total")).as("%s on agent_outcomes_results_total", label)
                    .allSatisfy(labels -> assertThat(labels).containsKey(label));
        });
        int narrowed = 0;
        for (JsonNode query : selectors(dashboard())) {
            String expr = query.get("expr").asText();
            for (JsonNode selector : query.get("selectors")) {
                String metric = selector.get("metric").asText();
                boolean genAi = samples.get(metric).stream().anyMatch(labels -> labels.containsKey("gen_ai_agent_id"));
                List<String> labels = new ArrayList<>();
                selector.get("labels").forEach(label -> labels.add(label.asText()));
                if (genAi) {
                    narrowed++;
                    assertThat(labels).as("%s in %s", metric, expr).containsAll(labelOf.values());
                    labelOf.forEach((name, label) -> assertThat(expr).contains(label + "=~\"$" + name + "\""));
                } else {
                    assertThat(labels).as("%s in %s", metric, expr).doesNotContainAnyElementsOf(labelOf.values());
                }
            }
        }
        assertThat(narrowed).as("selectors of GenAI meters in the dashboard").isGreaterThanOrEqualTo(10);
    }

    @Test
    void theRejectedInputPanelDrawsRejectedJsonByReasonAndUndecodableRecords() throws Exception {
        List<String> exprs = new ArrayList<>();
        for (JsonNode query : selectors(dashboard())) {
            if (query.get("panel").asText().equals("Rejected input by reason")) {
                exprs.add(query.get("expr").asText());
            }
        }
        assertThat(exprs).containsExactly("sum by (reason) (rate(agent_outcomes_rejected_input_total[$__rate_interval]))",
                "sum(rate(kafka_stream_task_dropped_records_total[$__rate_interval]))");
    }

    @Test
    void everyAlertRuleNamesOnlyMetricsAndLabelsOnMetrics() throws Exception {
        // the rules' expressions as a dashboard of one panel per alert, for the same PromQL parser
        JsonNode rules = new ObjectMapper(new YAMLFactory()).readTree(Path.of("..", "docker", "prometheus", "alerts.yml").toFile());
        ObjectNode asDashboard = new ObjectMapper().createObjectNode();
        ArrayNode panels = asDashboard.putArray("panels");
        Set<String> alerts = new TreeSet<>();
        for (JsonNode group : rules.get("groups")) {
            for (JsonNode rule : group.get("rules")) {
                alerts.add(rule.get("alert").asText());
                ObjectNode panel = panels.addObject().put("title", rule.get("alert").asText());
                panel.putArray("targets").addObject().put("expr", rule.get("expr").asText());
            }
        }
        Path file = Files.createTempFile(dataDir, "alerts", ".json");
        Files.writeString(file, asDashboard.toString());

        JsonNode queries = selectors(file);

        assertThat(alerts).containsExactlyInAnyOrder("AgentOutcomesDown", "StreamsNotRunning", "StreamThreadsReplaced",
                "ConsumerLagHigh", "PunctuationsFailing", "DeadLetterRateHigh", "RetriesLate", "RejectedInput",
                "UndecodableInputDropped", "ProviderCircuitOpen", "ProviderCircuitFlapping", "ProviderRetryBudgetExhausted",
                "BudgetThresholdCrossed");
        assertThat(queries).hasSize(alerts.size());
        // up: made by Prometheus for every target it scrapes, never on /metrics
        queries.forEach(query -> assertOnMetrics(query, Set.of("up")));
    }

    private static Path dashboard() {
        return Path.of(System.getProperty("dashboard.json", "../docker/grafana/dashboards/agent-outcomes.json"));
    }

    /** Every PromQL query of a Grafana dashboard file with its selectors, read by {@code interop/promql/selectors.mjs}. */
    private static JsonNode selectors(Path dashboard) throws Exception {
        Path interop = Path.of(System.getProperty("promql.dir", "../interop/promql")).toAbsolutePath();
        Process process = new ProcessBuilder("node", "selectors.mjs", dashboard.toAbsolutePath().toString())
                .directory(interop.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return new ObjectMapper().readTree(out);
    }

    /**
     * A query (of {@link #selectors}) parses and names only metrics and labels on /metrics, besides {@code synthetic}
     * metrics and the labels Prometheus adds.
     */
    private static void assertOnMetrics(JsonNode query, Set<String> synthetic) {
        String expr = query.get("expr").asText();
        assertThat(query.get("errors").size()).as("PromQL syntax of %s", expr).isZero();
        assertThat(query.get("selectors").size()).as("metrics of %s", expr).isPositive();
        // Prometheus adds the target's labels to every sample it scrapes
        Set<String> queryLabels = new HashSet<>(Set.of("instance", "job"));
        for (JsonNode selector : query.get("selectors")) {
            String metric = selector.get("metric").asText();
            if (synthetic.contains(metric)) {
                continue;
            }
            assertThat(samples).as("metric %s of %s", metric, expr).containsKey(metric);
            Set<String> labels = new HashSet<>(Set.of("instance", "job"));
            samples.get(metric).forEach(set -> labels.addAll(set.keySet()));
            for (JsonNode label : selector.get("labels")) {
                String name = label.asText();
                assertThat(labels).as("label %s of %s in %s", name, metric, expr).contains(name);
            }
            queryLabels.addAll(labels);
        }
        for (JsonNode label : query.get("grouping")) {
            assertThat(queryLabels).as("grouping label %s in %s", label.asText(), expr).contains(label.asText());
        }
    }

    private static AgentResult result(String id, String agent, String model, String provider, Object outcome, long input,
                                      long cacheRead, long cacheWrite, long output) {
        return AgentResult.newBuilder().setResultId(id).setAgentId(agent).setTaskId("task-" + id)
                .setExecution(ExecutionMetadata.newBuilder().setModel(model).setProvider(provider).setDurationMs(250L)
                        .setUsage(Usage.newBuilder().setInputTokens(input).setCacheReadTokens(cacheRead)
                                .setCacheWriteTokens(cacheWrite).setOutputTokens(output).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.001"))).setSource(CostSource.REPORTED).build())
                        .build())
                .setOutcome(outcome).build();
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Reads /metrics into {@link #types} and {@link #samples}, checking every line is a comment or a sample. */
    private static void scrape() throws Exception {
        HttpResponse<String> response = get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        types.clear();
        samples.clear();
        for (String line : response.body().split("\n")) {
            Matcher type = TYPE.matcher(line);
            if (type.matches()) {
                types.put(type.group(1), type.group(2));
            }
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            assertThat(sample.matches()).as("a Prometheus sample line: %s", line).isTrue();
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(sample.group(2) == null ? "" : sample.group(2));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            labels.put("__value__", sample.group(3));
            samples.computeIfAbsent(sample.group(1), n -> new ArrayList<>()).add(labels);
        }
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "metrics-scrape.txt"), response.body());
    }

    private static double sum(String name) {
        return sum(name, null, null);
    }

    private static double sum(String name, String label, String value) {
        return samples.getOrDefault(name, List.of()).stream()
                .filter(labels -> label == null || value.equals(labels.get(label)))
                .mapToDouble(labels -> Double.parseDouble(labels.get("__value__"))).sum();
    }
}
