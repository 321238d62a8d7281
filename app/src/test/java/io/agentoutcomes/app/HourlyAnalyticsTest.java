package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Hourly analytics of a known mixed load, on the topic, in /metrics and through /analytics. */
class HourlyAnalyticsTest extends ServiceOnTestBroker {
    @Test
    void hourlyAnalyticsEqualTheSumsOfAKnownMixedLoadToTheLastDigit() throws Exception {
        AppConfig config = config("analytics", Map.of(ConfigLoader.TOPIC_PARTITIONS, "1",
                "analytics.flush.interval.ms", "200", "analytics.grace.ms", "0"));
        String prefix = config.topicPrefix();
        Instant hour = Instant.parse("2026-03-01T10:00:00Z");
        String[] agents = {"summarizer", "reviewer", "planner"};
        String[] models = {"gpt-4o-mini", "claude-haiku"};
        Map<String, BigDecimal> expectedCost = new HashMap<>();
        Map<String, Long> expectedInput = new HashMap<>();
        Map<String, Map<String, Long>> expectedCompletions = new HashMap<>();
        List<AgentResult> load = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String agent = agents[i % 3];
            String model = models[(i / 3) % 2];
            String provider = model.startsWith("gpt") ? "openai" : "anthropic";
            BigDecimal cost = new BigDecimal(i + 1).movePointLeft(7).setScale(12);
            long input = 100 + i;
            Object outcome = i % 5 == 0 ? Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-refusal").build()).build()
                    : i % 7 == 0 ? Skipped.newBuilder().setReason("nothing to do").build() : Success.newBuilder().build();
            String type = i % 5 == 0 ? "PERMANENT_FAILURE" : i % 7 == 0 ? "SKIPPED" : "SUCCESS";
            String key = agent + "|" + model + "|" + provider;
            expectedCost.merge(key, cost, BigDecimal::add);
            expectedInput.merge(key, input, Long::sum);
            expectedCompletions.computeIfAbsent(key, k -> new HashMap<>()).merge(type, 1L, Long::sum);
            load.add(AgentResult.newBuilder().setResultId("r-" + i).setAgentId(agent).setTaskId("task-" + i)
                    .setExecution(ExecutionMetadata.newBuilder().setModel(model).setProvider(provider).setDurationMs(10L + i)
                            .setUsage(Usage.newBuilder().setInputTokens(input).setOutputTokens(7L).build())
                            .setCost(Cost.newBuilder().setTotal(Money.toBytes(cost)).setSource(CostSource.REPORTED).build()).build())
                    .setOutcome(outcome).build());
        }

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < load.size(); i++) {
                    AgentResult result = load.get(i);
                    producer.send(new ProducerRecord<>(prefix + "agent-results", null, hour.plusSeconds(i * 10L).toEpochMilli(),
                            result.getTaskId(), result)).get();
                }
                Thread.sleep(1_000);
                AgentResult clock = AgentResult.newBuilder(load.get(1)).setResultId("clock").setTaskId("clock").build();
                producer.send(new ProducerRecord<>(prefix + "agent-results", null, hour.plusSeconds(7_300).toEpochMilli(),
                        "clock", clock)).get();
            }
            Map<String, AgentMetrics> closed = new HashMap<>();
            Map<String, Object> consumer = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "metrics-" + UUID.randomUUID(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, AgentMetrics> metrics = new KafkaConsumer<>(consumer,
                    new StringDeserializer(), AvroSerde.specific(AgentMetrics.class)
                            .configured(serde, false).deserializer())) {
                metrics.subscribe(List.of(prefix + "agent-metrics-1h"));
                waitForCondition(() -> {
                    for (ConsumerRecord<String, AgentMetrics> record : metrics.poll(Duration.ofMillis(200))) {
                        AgentMetrics window = record.value();
                        if (window.getWindowClosed() && window.getWindowStart() == hour.toEpochMilli()) {
                            closed.put(window.getAgentId() + "|" + window.getModel() + "|" + window.getProvider(), window);
                        }
                    }
                    return closed.size() >= expectedCost.size();
                }, 60_000, () -> "closed hourly windows: " + closed.keySet());
            }
            assertThat(closed.keySet()).isEqualTo(expectedCost.keySet());
            closed.forEach((key, window) -> {
                assertThat(window.getCostTotal()).as("cost of %s", key).isEqualTo(expectedCost.get(key));
                assertThat(window.getInputTokens()).as("input tokens of %s", key).isEqualTo(expectedInput.get(key));
                assertThat(window.getCompletions()).as("completions of %s", key).isEqualTo(expectedCompletions.get(key));
            });
            assertThat(closed.values().stream().map(AgentMetrics::getCostTotal)
                    .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo("0.004515");

            // the running totals (the 300 results and the clock record) as Prometheus domain meters and through the API
            assertThat(scrapeSum(service, "agent_outcomes_cost_usd_total", "")).isCloseTo(0.0045152,
                    offset(1e-12));
            assertThat(scrapeSum(service, "agent_outcomes_results_total", "")).isEqualTo(301.0);
            assertThat(scrapeSum(service, "agent_outcomes_results_total", "result_type=\"SKIPPED\"")).isEqualTo(
                    (double) expectedCompletions.values().stream().mapToLong(m -> m.getOrDefault("SKIPPED", 0L)).sum());
            HttpResponse<String> byModel = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.httpUrl() + "/analytics?window=1h&by=model")).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = new ObjectMapper().readTree(byModel.body());
            assertThat(answer.get("series")).extracting(series -> series.get("name").asText())
                    .containsExactly("claude-haiku", "gpt-4o-mini");
            assertThat(answer.at("/series/0/points/0/windowStart").asText()).isEqualTo(hour.toString());
            assertThat(answer.at("/series/0/points/0/windowClosed").asBoolean()).isTrue();
            // issue 19 item 4: the answer says it reads uncommitted state
            assertThat(answer.get("isolationLevel").asText()).isEqualTo("read_uncommitted");
            assertThat(byModel.headers().firstValue("X-Isolation-Level")).contains("read_uncommitted");
        }
    }
}
