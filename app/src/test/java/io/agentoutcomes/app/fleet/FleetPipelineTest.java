package io.agentoutcomes.app.fleet;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.TestServiceConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.testing.TestBroker;
import io.agentoutcomes.topology.analytics.Figures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet} with a fixed seed against the pipeline on a real broker (in the test JVM): every number of its report
 * checked against this test's own {@code read_committed} reading of the topics, from the beginning, and against the
 * fleet's own tally of what it sent; then every other surface, {@code /analytics} (running totals, and the 1-minute
 * windows the dashboard draws) and the domain meters of {@code /metrics} (what the Grafana panels query), giving the
 * same tokens, cost, outcomes, retries and dead letters (docs/analytics.md, "Figures"). The service requires
 * credentials, so the fleet's registry client and this test's HTTP client present them.
 */
class FleetPipelineTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void everyNumberOfTheReportIsWhatTheTopicsHold() throws Exception {
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 2,
                     "backoff.cap.ms", "3000", "http.auth.basic.user.info", "fleet:fl33t-pa55"))) {
            waitForCondition(() -> service.streamsState() == KafkaStreams.State.RUNNING, 60_000, "Kafka Streams RUNNING");
            // the embedded registry takes writes only with the service's credentials: the fleet presents them
            Map<String, Object> client = new HashMap<>(service.clientConfig());
            client.putAll(service.registryClientSettings());
            assertThat(client).containsEntry(AvroSerdeConfig.BASIC_AUTH_USER_INFO, "fleet:fl33t-pa55");
            client.put(OutcomePublisher.TOPIC_PREFIX, "");
            FleetReport report = FleetSession.run(new FleetSettings(client, 12, Duration.ofSeconds(12), 7, 0.5,
                    Duration.ofSeconds(60)), new PrintWriter(new StringWriter()));

            assertThat(report.settled()).isTrue();
            assertThat(report.publishFailures()).isZero();
            Map<String, List<ConsumerRecord<byte[], byte[]>>> topics = readCommitted(kafka.bootstrapServers());
            var outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(client, false).deserializer();
            var retries = AvroSerde.specific(RetryRequest.class).configured(client, false).deserializer();

            // published: the JSON topics hold what was sent; the Avro topics that and what ingestion normalized
            assertThat(topics.get(TopicNames.REJECTED_INPUT)).isEmpty();
            for (String json : List.of(TopicNames.AGENT_RESULTS_JSON, TopicNames.NODE_FINISHED_JSON, TopicNames.CONTINUATION_EVENTS_JSON)) {
                assertThat(report.publishedByTopic().get(json)).as(json).isEqualTo(topics.get(json).size());
                String avro = json.substring(0, json.length() - "-json".length());
                assertThat(report.publishedByTopic().get(avro) + report.publishedByTopic().get(json)).as(avro)
                        .isEqualTo(topics.get(avro).size());
            }
            assertThat(report.published()).isEqualTo(report.publishedByTopic().values().stream().mapToLong(Long::longValue).sum());

            Map<String, Long> byType = new TreeMap<>();
            Set<String> afterRetry = new HashSet<>();
            Figures.Tally tally = new Figures.Tally();
            Map<String, Long> byJob = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : topics.get(TopicNames.OUTCOMES_CLASSIFIED)) {
                ClassifiedOutcome outcome = outcomes.deserialize(record.topic(), record.headers(), record.value());
                byType.merge(outcome.getResultType().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
                if (outcome.getResultType() == ResultType.SUCCESS && outcome.getAttempt() > 0) {
                    afterRetry.add(outcome.getTaskId());
                }
                if (outcome.getJobId() != null) {
                    byJob.merge(outcome.getJobId(), 1L, Long::sum);
                }
                tally.add(outcome);
            }
            Map<String, BigDecimal> cost = new TreeMap<>();
            Map<String, Long> tokens = new TreeMap<>();
            Figures.byModel(tally.aggregates().stream().filter(m -> !m.getAgentId().equals("_workflow")).toList())
                    .forEach((model, m) -> {
                        cost.put(model, m.getCostTotal());
                        tokens.put(model, Figures.tokens(m).total());
                    });
            assertThat(report.outcomes()).isEqualTo(byType);
            assertThat(byType.keySet()).contains("success", "retryable_failure", "permanent_failure",
                    "compensatable_failure", "skipped", "in_progress");
            assertThat(report.succeededAfterRetry()).isEqualTo(afterRetry.size()).isPositive();
            // every outcome is a result or node event the fleet sent
            assertThat(byType.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(
                    List.of(TopicNames.AGENT_RESULTS, TopicNames.AGENT_RESULTS_JSON, TopicNames.NODE_FINISHED, TopicNames.NODE_FINISHED_JSON)
                            .stream().mapToLong(topic -> report.publishedByTopic().get(topic)).sum());
            // cost and tokens by model: the fleet's own tally = the topics = the report; seed 004 names no model
            assertThat(cost.keySet()).hasSize(Catalog.MODELS.size() + 1).contains(Catalog.NO_MODEL)
                    .isEqualTo(report.costByModel().keySet()).isEqualTo(report.sentCostByModel().keySet());
            cost.forEach((model, usd) -> {
                assertThat(report.costByModel().get(model)).as(model).isEqualByComparingTo(usd);
                assertThat(report.sentCostByModel().get(model)).as(model).isEqualByComparingTo(usd);
            });
            assertThat(report.tokensByModel()).isEqualTo(tokens).isEqualTo(report.sentTokensByModel());
            long busiest = byJob.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(report.busiestJobOutcomes()).isEqualTo(busiest);
            assertThat(byJob.get(report.busiestJob())).isEqualTo(busiest);

            long scheduled = topics.entrySet().stream().filter(e -> e.getKey().startsWith(TopicNames.RETRY_DELAY_PREFIX))
                    .mapToLong(e -> e.getValue().size()).sum();
            assertThat(report.retriesScheduled()).isEqualTo(scheduled).isPositive();
            List<ConsumerRecord<byte[], byte[]>> ready = topics.get(TopicNames.RETRY_READY);
            assertThat(report.retriesDelivered()).isEqualTo(ready.size()).isEqualTo(scheduled);
            assertThat(report.retriesReceived()).isEqualTo(ready.size());
            long beforeDue = ready.stream().filter(r -> r.timestamp() < retries.deserialize(r.topic(), r.headers(), r.value())
                    .getDueAt()).count();
            assertThat(report.retriesDeliveredBeforeDue()).isEqualTo(beforeDue).isZero();
            assertThat(report.retriesEarly()).isZero();
            assertThat(report.reruns()).isPositive().isLessThanOrEqualTo(report.retriesReceived());

            Map<String, Long> deadByReason = new TreeMap<>();
            Map<String, Long> deadByCode = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> record : topics.get(TopicNames.DEAD_LETTER)) {
                ClassifiedOutcome stopped = outcomes.deserialize(record.topic(), record.headers(), record.value());
                deadByReason.merge(stopped.getDecision().getStopReason().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
                deadByCode.merge(stopped.getErrorCode() == null ? "none" : stopped.getErrorCode(), 1L, Long::sum);
            }
            assertThat(report.deadLetters()).isEqualTo(deadByReason);
            assertThat(report.deadLettersByCode()).isEqualTo(deadByCode);
            assertThat(deadByReason).containsKey("error");

            Surfaces surfaces = new Surfaces(service);
            long outcomeCount = byType.values().stream().mapToLong(Long::longValue).sum();
            String[] metrics = {null};
            waitForCondition(() -> {
                metrics[0] = surfaces.get("/metrics");
                return Surfaces.sum(metrics[0], "agent_outcomes_results_total", null) == outcomeCount;
            }, 60_000, 500, () -> "agent_outcomes_results_total " + outcomeCount);
            // /metrics: the domain meters, as the Grafana panels sum them
            String scrape = metrics[0];
            assertThat(Surfaces.sum(scrape, "agent_outcomes_results_total", null)).isEqualTo((double) outcomeCount);
            byType.forEach((type, count) -> assertThat(Surfaces.sum(scrape, "agent_outcomes_results_total",
                    "result_type=\"" + type.toUpperCase(Locale.ROOT) + "\"")).as(type).isEqualTo((double) count));
            assertThat(Surfaces.sum(scrape, "agent_outcomes_retries_total", null)).as("retries scheduled").isEqualTo((double) scheduled);
            deadByReason.forEach((reason, count) -> assertThat(Surfaces.sum(scrape, "agent_outcomes_dead_letters_total",
                    "stop_reason=\"" + reason.toUpperCase(Locale.ROOT) + "\"")).as(reason).isEqualTo((double) count));
            assertThat(Surfaces.sum(scrape, "agent_outcomes_dead_letters_total", null))
                    .isEqualTo((double) deadByReason.values().stream().mapToLong(Long::longValue).sum());
            tokens.forEach((model, count) -> assertThat(Surfaces.sum(scrape, "agent_outcomes_tokens_total",
                    "gen_ai_request_model=\"" + model + "\"")).as(model).isEqualTo((double) count));
            cost.forEach((model, usd) -> assertThat(Surfaces.sum(scrape, "agent_outcomes_cost_usd_total",
                    "gen_ai_request_model=\"" + model + "\"")).as(model).isCloseTo(usd.doubleValue(), Offset.offset(1e-9)));

            // /analytics: the running totals, and the 1-minute windows the dashboard draws, summed
            for (String window : List.of("total", "1m")) {
                Map<String, BigDecimal> analyticsCost = new TreeMap<>();
                Map<String, Long> analyticsTokens = new TreeMap<>();
                for (JsonNode series : surfaces.analytics(window, "model").get("series")) {
                    for (JsonNode point : series.get("points")) {
                        analyticsCost.merge(series.get("name").asText(), point.get("costTotal").decimalValue(), BigDecimal::add);
                        analyticsTokens.merge(series.get("name").asText(), point.get("totalTokens").asLong(), Long::sum);
                    }
                }
                assertThat(analyticsTokens).as(window).isEqualTo(tokens);
                assertThat(analyticsCost.keySet()).as(window).isEqualTo(cost.keySet());
                cost.forEach((model, usd) -> assertThat(analyticsCost.get(model)).as(window + " " + model)
                        .isEqualByComparingTo(usd));
            }
            Map<String, Long> analyticsTypes = new TreeMap<>();
            Map<String, Long> analyticsDead = new TreeMap<>();
            long analyticsRetries = 0;
            for (JsonNode series : surfaces.analytics("total", "agent").get("series")) {
                JsonNode point = series.get("points").get(0);
                point.get("completions").fields().forEachRemaining(e ->
                        analyticsTypes.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asLong(), Long::sum));
                point.get("deadLetters").fields().forEachRemaining(e ->
                        analyticsDead.merge(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asLong(), Long::sum));
                analyticsRetries += point.get("retries").asLong();
            }
            assertThat(analyticsTypes).isEqualTo(byType);
            assertThat(analyticsDead).isEqualTo(deadByReason);
            assertThat(analyticsRetries).isEqualTo(scheduled);
        }
    }

    /**
     * {@code fleet --without-costs}: results with tokens and no cost are priced by the pipeline from its shipped table,
     * marked computed, and each equals this test's own computation from the table's file (its prices for the fleet's
     * five models, read here with Jackson, and the providers' token conventions: Anthropic's input excludes cache
     * reads and writes, the others' include them; a cache kind without a price is priced as input). Per model,
     * {@code /analytics} shows it all as computed and nothing as reported. Results that report a total alone (seed 000
     * {@code tokensUsed}) or no model (seed 004) cannot be priced and stay without cost.
     */
    @Test
    void aFleetWithoutCostsIsPricedFromTheShippedTableAsAnIndependentComputationPricesIt() throws Exception {
        String prefix = "priced.";
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 2,
                     "backoff.cap.ms", "3000", "topic.prefix", prefix, "application.id", "priced-app"))) {
            waitForCondition(() -> service.streamsState() == KafkaStreams.State.RUNNING, 60_000, "Kafka Streams RUNNING");
            Map<String, Object> client = new HashMap<>(service.clientConfig());
            client.putAll(service.registryClientSettings());
            client.put(OutcomePublisher.TOPIC_PREFIX, prefix);
            FleetReport report = FleetSession.run(new FleetSettings(client, 12, Duration.ofSeconds(8), 3, 0.5,
                    Duration.ofSeconds(60), false), new PrintWriter(new StringWriter()));
            assertThat(report.settled()).isTrue();
            assertThat(report.sentCostByModel().values()).allSatisfy(usd -> assertThat(usd).isEqualByComparingTo("0"));

            JsonNode table = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .readTree(getClass().getResourceAsStream("/prices/genai-prices.json"));
            Map<String, JsonNode> prices = new TreeMap<>();
            Map<String, String[]> ids = Map.of("gpt-4o-mini", new String[] {"openai", "gpt-4o-mini"},
                    "gpt-4o", new String[] {"openai", "gpt-4o"},
                    "claude-3-5-haiku", new String[] {"anthropic", "claude-3-5-haiku-latest"},
                    "claude-sonnet-4", new String[] {"anthropic", "claude-sonnet-4-0"},
                    "llama-3.3-70b", new String[] {"cerebras", "llama-3.3-70b"});
            for (JsonNode provider : table.get("providers")) {
                for (JsonNode model : provider.get("models")) {
                    ids.forEach((name, id) -> {
                        if (provider.get("id").asText().equals(id[0]) && model.get("id").asText().equals(id[1])) {
                            prices.put(name, model.get("prices"));
                        }
                    });
                }
            }
            assertThat(prices).hasSize(5);
            var outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(client, false).deserializer();
            Map<String, BigDecimal> expected = new TreeMap<>();
            int priced = 0;
            for (ConsumerRecord<byte[], byte[]> record : readCommitted(kafka.bootstrapServers()).get(prefix + TopicNames.OUTCOMES_CLASSIFIED)) {
                ClassifiedOutcome outcome = outcomes.deserialize(record.topic(), record.headers(), record.value());
                AgentResult result = outcome.getAgentResult();
                ExecutionMetadata execution = result == null ? null : result.getExecution();
                Usage usage = execution == null ? null : execution.getUsage();
                if (usage == null || usage.getInputTokens() == null || !prices.containsKey(execution.getModel())) {
                    assertThat(execution == null ? null : execution.getCost()).as("unpriceable %s", outcome.getResultId()).isNull();
                    continue;
                }
                JsonNode price = prices.get(execution.getModel());
                long read = usage.getCacheReadTokens() == null ? 0 : usage.getCacheReadTokens();
                long write = usage.getCacheWriteTokens() == null ? 0 : usage.getCacheWriteTokens();
                long uncached = execution.getProvider().equals("anthropic") ? usage.getInputTokens() : usage.getInputTokens() - read - write;
                BigDecimal input = price.get("input_mtok").decimalValue();
                BigDecimal usd = input.multiply(BigDecimal.valueOf(uncached))
                        .add(price.get("output_mtok").decimalValue().multiply(BigDecimal.valueOf(usage.getOutputTokens())))
                        .add((price.has("cache_read_mtok") ? price.get("cache_read_mtok").decimalValue() : input).multiply(BigDecimal.valueOf(read)))
                        .add((price.has("cache_write_mtok") ? price.get("cache_write_mtok").decimalValue() : input).multiply(BigDecimal.valueOf(write)))
                        .movePointLeft(6);
                assertThat(execution.getCost().getSource()).isEqualTo(CostSource.COMPUTED);
                assertThat(Money.toDecimal(execution.getCost().getTotal())).as(outcome.getResultId()).isEqualByComparingTo(usd);
                expected.merge(execution.getModel(), usd, BigDecimal::add);
                priced++;
            }
            assertThat(priced).isPositive();
            assertThat(expected.keySet()).containsExactlyInAnyOrderElementsOf(ids.keySet());
            // every surface keeps computed apart from reported
            Map<String, BigDecimal> computed = new TreeMap<>();
            for (JsonNode series : new Surfaces(service).analytics("total", "model").get("series")) {
                JsonNode total = series.get("points").get(0);
                assertThat(total.get("costReported").decimalValue()).as(series.get("name").asText()).isEqualByComparingTo("0");
                if (expected.containsKey(series.get("name").asText())) {
                    computed.put(series.get("name").asText(), total.get("costComputed").decimalValue());
                }
            }
            assertThat(computed.keySet()).isEqualTo(expected.keySet());
            expected.forEach((model, usd) -> assertThat(computed.get(model)).as(model).isEqualByComparingTo(usd));
        }
    }

    /** The service's HTTP surfaces, asked with its credentials. */
    private record Surfaces(AgentOutcomesService service) {
        private static final ObjectMapper JSON = new ObjectMapper()
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

        String get(String path) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(service.httpUrl() + path))
                    .timeout(Duration.ofSeconds(30));
            service.httpSecurity().clientAuthorization().ifPresent(value -> request.header("Authorization", value));
            HttpResponse<String> response = service.httpSecurity().client(Duration.ofSeconds(10)).send(request.build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            return response.body();
        }

        JsonNode analytics(String window, String by) throws Exception {
            return JSON.readTree(get("/analytics?window=" + window + "&by=" + by));
        }

        /** The sum of a metric's samples in a scrape of /metrics, those with a label (name="value") only when given. */
        static double sum(String scrape, String name, String label) {
            double sum = 0;
            for (String line : scrape.split("\n")) {
                if ((line.startsWith(name + "{") || line.startsWith(name + " "))
                        && (label == null || line.contains(label))) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return sum;
        }
    }

    /** Every record of the pipeline's topics, read_committed, from the beginning to the last stable offset. */
    private static Map<String, List<ConsumerRecord<byte[], byte[]>>> readCommitted(String bootstrap) throws InterruptedException {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "enable.auto.commit", "false", "auto.offset.reset", "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics().values().stream().flatMap(List::stream)
                    .filter(p -> !p.topic().startsWith("_") && !p.topic().startsWith("agent-outcomes-"))
                    .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<String, List<ConsumerRecord<byte[], byte[]>>> byTopic = new HashMap<>();
            partitions.forEach(p -> byTopic.putIfAbsent(p.topic(), new ArrayList<>()));
            waitForCondition(() -> {
                if (ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                    return true;
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> byTopic.get(r.topic()).add(r));
                return false;
            }, 30_000, 0, () -> "reading the topics to their ends");
            return byTopic;
        }
    }
}
