package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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

/**
 * Fallback models (issue 33 item 2) on a real broker, read {@code read_committed} from {@code retry-ready}: a model
 * whose circuit opens has its due retries re-run on the declared fallback at once, paced by the fallback's own budget;
 * a token-limit failure with a context-window chain is retried at once on the larger model. Each move is counted once,
 * the same on {@code /providers} (both ways) and {@code /metrics}.
 */
class FallbackOnBrokerTest extends ServiceOnTestBroker {
    private static final int FLAKY = 20;

    @Test
    void dueRetriesOfAModelWithAnOpenCircuitGoToItsFallbackAndATokenLimitGoesToTheLargerModel() throws Exception {
        AppConfig config = config("fallback", Map.of("fallback.flaky/m1", "backup/m2",
                "fallback.context.openai/gpt-4o-mini", "openai/gpt-4.1"));
        String prefix = config.topicPrefix();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            String topic = prefix + TopicNames.AGENT_RESULTS;
            long start = System.currentTimeMillis();
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                // backup/m2 advertises 120 requests a minute: its retries go about two a second
                RateLimitState budget = RateLimitState.newBuilder().setLimited(false).setWindows(List.of(RateLimitWindow.newBuilder()
                        .setName("requests").setResource("requests").setLimit(120L).setRemaining(120L).build())).build();
                producer.send(record(topic, "backup", "m2", "backup-ok", Success.newBuilder().build(), budget));
                // 20 failures open flaky/m1's circuit within about a second; their retries fall due 10 s later
                for (int i = 0; i < FLAKY; i++) {
                    producer.send(record(topic, "flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null));
                }
                producer.send(record(topic, "openai", "gpt-4o-mini", "too-large", failure("llm-token-limit"), null));
            }
            List<ConsumerRecord<String, RetryRequest>> ready = readCommitted(prefix + TopicNames.RETRY_READY, FLAKY + 1, serde);

            assertThat(ready).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates().hasSize(FLAKY + 1);
            assertThat(ready).allSatisfy(r -> assertThat(r.timestamp()).as("released at or after due: %s", r.key())
                    .isGreaterThanOrEqualTo(r.value().getDueAt()));
            RetryRequest larger = ready.stream().map(ConsumerRecord::value).filter(r -> r.getTaskId().equals("too-large"))
                    .findFirst().orElseThrow();
            assertThat(larger.getFallbackProvider()).isEqualTo("openai");
            assertThat(larger.getFallbackModel()).isEqualTo("gpt-4.1");
            assertThat(larger.getFallbackCause()).isEqualTo(FallbackCause.CONTEXT_WINDOW);
            assertThat(larger.getDelayMs()).isZero();
            List<ConsumerRecord<String, RetryRequest>> flaky = ready.stream().filter(r -> r.key().startsWith("flaky-")).toList();
            assertThat(flaky).allSatisfy(r -> {
                assertThat(r.value().getFallbackProvider()).isEqualTo("backup");
                assertThat(r.value().getFallbackModel()).isEqualTo("m2");
                assertThat(r.value().getFallbackCause()).isEqualTo(FallbackCause.CIRCUIT_OPEN);
            });
            long first = flaky.stream().mapToLong(ConsumerRecord::timestamp).min().orElseThrow();
            long last = flaky.stream().mapToLong(ConsumerRecord::timestamp).max().orElseThrow();
            long due = flaky.stream().mapToLong(r -> r.value().getDueAt()).max().orElseThrow();
            // at once when due, not when flaky/m1's circuit half-opens 30 s after it opened
            assertThat(first - due).as("first fallback release after due").isLessThan(5_000);
            // paced by backup/m2's budget: 20 at two a second (the burst of one, then 119 per 60.1 s) take 9 s or more
            assertThat(last - first).as("span of the fallback releases").isGreaterThanOrEqualTo(9_000);
            assertThat(last - start).as("all released before flaky/m1 half-opens").isLessThan(41_000);

            // counted once per move, on the scope moved to, and turned round on the scope moved from
            Map<String, JsonNode> scopes = providers(service);
            assertThat(scopes.get("backup/m2").get("fallbacksReceived").toString())
                    .isEqualTo("[{\"provider\":\"flaky\",\"model\":\"m1\",\"cause\":\"CIRCUIT_OPEN\",\"retries\":20}]");
            assertThat(scopes.get("flaky/m1").get("fallbacksMoved").toString())
                    .isEqualTo("[{\"provider\":\"backup\",\"model\":\"m2\",\"cause\":\"CIRCUIT_OPEN\",\"retries\":20}]");
            assertThat(scopes.get("openai/gpt-4.1").get("fallbacksReceived").toString()).isEqualTo(
                    "[{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"cause\":\"CONTEXT_WINDOW\",\"retries\":1}]");
            assertThat(scopes.get("openai/gpt-4o-mini").get("fallbacksMoved").toString()).isEqualTo(
                    "[{\"provider\":\"openai\",\"model\":\"gpt-4.1\",\"cause\":\"CONTEXT_WINDOW\",\"retries\":1}]");
            assertThat(scopes.get("flaky/m1").get("fallbacksReceived").size()).isZero();
            assertThat(scopes.get("backup/m2").get("fallbacksMoved").size()).isZero();
            assertThat(scrapeSum(service, "agent_outcomes_provider_retries_fallback_total", "cause=\"circuit_open\","
                    + "fallback_provider_name=\"backup\",fallback_request_model=\"m2\",gen_ai_provider_name=\"flaky\","
                    + "gen_ai_request_model=\"m1\"")).isEqualTo(FLAKY);
            assertThat(scrapeSum(service, "agent_outcomes_provider_retries_fallback_total", "cause=\"context_window\","
                    + "fallback_provider_name=\"openai\",fallback_request_model=\"gpt-4.1\",gen_ai_provider_name=\"openai\","
                    + "gen_ai_request_model=\"gpt-4o-mini\"")).isEqualTo(1);
            assertThat(scrapeSum(service, "agent_outcomes_provider_retries_fallback_total", "")).isEqualTo(FLAKY + 1);
        }
    }

    /** {@code GET /providers}: each scope by its name, provider/model. */
    private static Map<String, JsonNode> providers(AgentOutcomesService service) throws Exception {
        HttpResponse<String> providers = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(service.httpUrl() + "/providers")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(providers.statusCode()).isEqualTo(200);
        Map<String, JsonNode> scopes = new HashMap<>();
        new ObjectMapper().readTree(providers.body()).get("providers").forEach(scope ->
                scopes.put(scope.get("provider").asText() + "/" + scope.get("model").asText(), scope));
        return scopes;
    }

    private static List<ConsumerRecord<String, RetryRequest>> readCommitted(String topic, int expected, Map<String, Object> serde)
            throws InterruptedException {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, RetryRequest>> records = new ArrayList<>();
        try (KafkaConsumer<String, RetryRequest> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer())) {
            consumer.subscribe(List.of(topic));
            waitForCondition(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return records.size() >= expected;
            }, 90_000, () -> "records on " + topic + ": " + records.size() + " of " + expected);
            // a little longer: a retry released twice would show here
            long until = System.currentTimeMillis() + 3_000;
            while (System.currentTimeMillis() < until) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private static ProducerRecord<String, AgentResult> record(String topic, String provider, String model, String task, Object outcome,
                                                              RateLimitState rateLimit) {
        return new ProducerRecord<>(topic, task, AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent")
                .setTaskId(task).setDialect(Dialect.VAT_ENVELOPE).setRateLimit(rateLimit).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel(model).build()).build());
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }
}
