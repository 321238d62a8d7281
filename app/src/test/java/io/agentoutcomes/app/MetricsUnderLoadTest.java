package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code GET /metrics} of a service at its default settings (4 partitions) under load: concurrent scrapes during a flood
 * of 20 000 distinct agent ids while health is probed, every Kafka Streams metric on the exposition, and the
 * exposition's size after the flood.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MetricsUnderLoadTest {
    static final int AGENTS = 20_000;
    static final int SCRAPERS = 8;
    /** The documented bound of one scrape at the defaults (docs/operations.md, "Metrics"). */
    static final int MAX_EXPOSITION_BYTES = 640 * 1024;
    /** The readiness rule's answer while a store restores (docs/operations.md, "Health"). */
    private static final Pattern RESTORING =
            Pattern.compile("^503 \\{\"status\":\"DOWN\",.*\"reason\":\"\\d+ store partitions are being restored\"");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");

    @RegisterExtension
    static final TestBroker kafka = new TestBroker();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static AgentOutcomesService service;
    private static String prefix;

    @BeforeAll
    static void start() throws Exception {
        Path dataDir = Files.createTempDirectory("metrics-under-load");
        prefix = "load-" + System.nanoTime() + ".";
        AppConfig config = TestServiceConfig.on(kafka, dataDir, 4, ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix);
        service = AgentOutcomesService.start(config);
        waitForCondition(() -> get("/health/ready").statusCode() == 200, 60_000, "the service ready");
        // A fresh application's consumers can see their repartition topics only at the next metadata refresh: a
        // second rebalance right after the first RUNNING moves a task and restores it (unready for half a second).
        // The flood starts once readiness has held 3 s, as HostileCorpusIT's does.
        long steadySince = System.nanoTime();
        long deadline = steadySince + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() - steadySince < Duration.ofSeconds(3).toNanos()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("/health/ready did not hold 200 for 3 s within 60 s");
            }
            if (get("/health/ready").statusCode() != 200) {
                steadySince = System.nanoTime();
            }
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    @Order(1)
    void eightConcurrentScrapesAnswer200DuringAFloodOfDistinctAgentsWhileHealthAnswersWithinASecond() throws Exception {
        AtomicBoolean flooding = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Integer> scrapeStatuses = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> healthMillis = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> healthAnswers = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> refusedScrapes = new ConcurrentLinkedQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        ExecutorService scrapers = Executors.newFixedThreadPool(SCRAPERS);
        try {
            Future<?> health = threads.submit(() -> {
                while (flooding.get()) {
                    long started = System.nanoTime();
                    HttpResponse<String> ready = get("/health/ready");
                    healthAnswers.add(ready.statusCode() + " " + ready.body());
                    healthMillis.add((System.nanoTime() - started) / 1_000_000);
                    Thread.sleep(100);
                }
                return null;
            });
            // rounds of 8 scrapes let go at once, until the service has counted every result
            Future<?> scrapes = threads.submit(() -> {
                while (flooding.get()) {
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<Integer>> round = new ArrayList<>();
                    for (int i = 0; i < SCRAPERS; i++) {
                        round.add(scrapers.submit(() -> {
                            go.await();
                            HttpResponse<String> scrape = get("/metrics");
                            if (scrape.statusCode() != 200) {
                                refusedScrapes.add(scrape.statusCode() + " at " + Instant.now() + ": " + scrape.body());
                            }
                            return scrape.statusCode();
                        }));
                    }
                    go.countDown();
                    for (Future<Integer> scrape : round) {
                        scrapeStatuses.add(scrape.get());
                    }
                }
                return null;
            });
            produceOneResultPerAgent();
            waitForCondition(() -> scrapeSum("agent_outcomes_results_total") == AGENTS, 240_000,
                    "every result counted on /metrics");
            flooding.set(false);
            scrapes.get();
            health.get();
        } finally {
            flooding.set(false);
            threads.shutdownNow();
            scrapers.shutdownNow();
        }

        assertThat(scrapeStatuses).as("scrape statuses; the answers other than 200: %s", refusedScrapes)
                .hasSizeGreaterThanOrEqualTo(SCRAPERS).containsOnly(200);
        // Health is answered on its own threads, so scrapes never refuse or slow it: every answer 200, or the readiness
        // rule's own 503 while a store restores (docs/operations.md, "Health"). The first writes of a fresh application
        // to its new partitions can still re-initialize a task under Kafka 4.3.1 (OutOfOrderSequenceException on the
        // broker), and its restore makes the instance unready for a moment, as it should.
        assertThat(healthAnswers).as("health answers").isNotEmpty()
                .allMatch(answer -> answer.startsWith("200 ") || RESTORING.matcher(answer).find(),
                        "200, or 503 while a store restores");
        assertThat(healthMillis.stream().mapToLong(Long::longValue).max().orElseThrow()).as("slowest health answer, ms")
                .isLessThan(1000);
        // analytics.metrics.max.label.sets (50): the most expensive agents have their own series, the rest _other
        Set<String> agents = new TreeSet<>();
        for (String line : get("/metrics").body().split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (sample.matches() && sample.group(1).equals("agent_outcomes_results_total")) {
                Matcher agent = Pattern.compile("gen_ai_agent_id=\"([^\"]*)\"").matcher(sample.group(2));
                assertThat(agent.find()).isTrue();
                agents.add(agent.group(1));
            }
        }
        assertThat(agents).hasSize(50).contains("_other");
    }

    @Test
    @Order(2)
    void everyKafkaStreamsMetricNameHasASeriesOnMetrics() throws Exception {
        Set<String> exported = new TreeSet<>();
        for (String line : get("/metrics").body().split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (!line.startsWith("#") && sample.matches()) {
                exported.add(sample.group(1));
            }
        }
        Set<String> missing = new TreeSet<>();
        Set<String> checked = new TreeSet<>();
        service.streamsMetrics().forEach((name, metric) -> {
            // text, not a number (version, commit-id, application-id, topology-description, state): no meter
            if (!(metric.metricValue() instanceof Number)) {
                return;
            }
            // Micrometer's naming: kafka.<group without -metrics>.<name>, in Prometheus form
            String base = ("kafka." + name.group().replaceFirst("-metrics$", "") + "." + name.name())
                    .replaceAll("[.-]", "_");
            // Prometheus reserves _created: docs/operations.md, "Size of a scrape"
            base = base.replace("_task_created_total", "_task_creations_total");
            // the pipeline's own sensors are exported once, as domain meters (RejectionMeters, PricingMeters,
            // ClockSkewMeters)
            if (base.startsWith("kafka_stream_agent_outcomes_pricing_")) {
                base = base.replaceFirst("kafka_stream_agent_outcomes_pricing_(cost_[a-z]+)_(total|rate)",
                        "agent_outcomes_$1_total");
            }
            if (base.startsWith("kafka_stream_agent_outcomes_ingest_otlp_spans_skipped_")) {
                base = "agent_outcomes_otlp_spans_skipped_total";
            }
            if (base.startsWith("kafka_stream_agent_outcomes_ingest_rejected_")) {
                base = "agent_outcomes_rejected_input_total";
            }
            if (base.startsWith("kafka_stream_agent_outcomes_ingest_timestamps_clamped_")) {
                base = "agent_outcomes_input_timestamps_clamped_total";
            }
            checked.add(base);
            if (!exported.contains(base) && !exported.contains(base + "_total")) {
                missing.add(base + " (" + name.group() + " " + name.tags().keySet() + ")");
            }
        });
        assertThat(checked).as("Kafka Streams metric names").hasSizeGreaterThan(100)
                .contains("kafka_stream_state_commit_rate", "kafka_stream_state_iterator_duration_max",
                        "kafka_stream_state_oldest_iterator_open_since_ms");
        assertThat(missing).as("Kafka Streams metrics without a series on /metrics").isEmpty();
    }

    @Test
    @Order(3)
    void theExpositionAtTheDefaultsStaysUnderItsBound() throws Exception {
        HttpResponse<String> scrape = get("/metrics");
        byte[] body = scrape.body().getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "metrics-under-load.txt"), body);
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(body.length).as("bytes of one scrape after %d agents", AGENTS).isLessThan(MAX_EXPOSITION_BYTES);
    }

    @Test
    @Order(4)
    void analyticsByAgentAndTheDashboardStayBoundedAfterTwentyThousandAgents() throws Exception {
        long started = System.nanoTime();
        HttpResponse<String> analytics = get("/analytics?window=total&by=agent");
        long analyticsMillis = (System.nanoTime() - started) / 1_000_000;
        started = System.nanoTime();
        HttpResponse<String> dashboard = get("/");
        long dashboardMillis = (System.nanoTime() - started) / 1_000_000;
        Files.writeString(Path.of("target", "analytics-under-load.txt"), "/analytics?window=total&by=agent "
                + analytics.body().getBytes(StandardCharsets.UTF_8).length + " bytes " + analyticsMillis + " ms\n/ "
                + dashboard.body().getBytes(StandardCharsets.UTF_8).length + " bytes " + dashboardMillis + " ms\n");

        assertThat(analytics.statusCode()).isEqualTo(200);
        JsonNode answer = new ObjectMapper().readTree(analytics.body());
        assertThat(answer.get("groups").asInt()).isEqualTo(AGENTS);
        List<String> names = new ArrayList<>();
        long results = 0;
        for (JsonNode series : answer.get("series")) {
            names.add(series.get("name").asText());
            results += series.get("points").get(0).get("completions").get("SUCCESS").asLong();
        }
        // the 100 most expensive agents (costs 0.000100 .. 0.000999: i % 900 == 899 first: agent-899, agent-1799, ...), then the rest
        assertThat(names).hasSize(101).endsWith("_other").contains("agent-899", "agent-19799");
        assertThat(results).as("every result, in a group or in _other").isEqualTo(AGENTS);
        assertThat(analytics.body().length()).isLessThan(512 * 1024);
        assertThat(dashboard.statusCode()).isEqualTo(200);
        assertThat(dashboard.body()).contains("more agents, with smaller values, not drawn.").hasSizeLessThan(512 * 1024);
    }

    private static void produceOneResultPerAgent() throws Exception {
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
        try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all", "linger.ms", 20), new StringSerializer(),
                AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
            for (int i = 0; i < AGENTS; i++) {
                AgentResult result = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("agent-" + i)
                        .setTaskId("task-" + i).setOutcome(Success.newBuilder().build())
                        .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai")
                                .setDurationMs(100L + i % 900)
                                .setUsage(Usage.newBuilder().setInputTokens(100L).setOutputTokens(10L).build())
                                .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.000" + (100 + i % 900))))
                                        .setSource(CostSource.REPORTED).build())
                                .build())
                        .build();
                producer.send(new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS, result.getTaskId(), result));
            }
            producer.flush();
        }
    }

    private static double scrapeSum(String metric) throws Exception {
        double sum = 0;
        for (String line : get("/metrics").body().split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (!line.startsWith("#") && sample.matches() && sample.group(1).equals(metric)) {
                sum += Double.parseDouble(sample.group(3));
            }
        }
        return sum;
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
