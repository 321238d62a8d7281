package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The provider gate on a real broker, at the service's defaults: one provider advertising 100 requests a minute with
 * none left has its retries released at most 100 a minute; another fails for 30 s and recovers, and its circuit opens,
 * half-opens with probes and closes on the topic {@code provider-health}; a third flows throughout.
 */
class ProviderGateOnBrokerTest extends ServiceOnTestBroker {
    private static final int PACED = 130;

    @Test
    void retriesArePacedToTheAdvertisedBudgetAndHeldByAnOpenCircuitUntilTheProviderRecovers() throws Exception {
        AppConfig config = config("gate", Map.of());
        String prefix = config.topicPrefix();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            long start = System.currentTimeMillis();
            int flakyFailures = 0;
            int flakySuccesses = 0;
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                String topic = prefix + TopicNames.AGENT_RESULTS;
                RateLimitState exhausted = RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow.newBuilder()
                        .setName("requests").setResource("requests").setLimit(100L).setRemaining(0L).setResetsInMs(5_000L)
                        .setResetAtMs(start + 5_000).build())).build();
                for (int i = 0; i < PACED; i++) {
                    producer.send(record(topic, "acme", "acme-" + i, failure("llm-rate-limit"), exhausted));
                }
                for (int i = 0; i < 10; i++) {
                    producer.send(record(topic, "steady", "steady-" + i, failure("llm-timeout"), null));
                }
                // the flaky provider fails for 28 s, two results a second, then succeeds
                while (System.currentTimeMillis() - start < 28_000) {
                    producer.send(record(topic, "flaky", "flaky-" + flakyFailures++, failure("llm-unavailable"), null));
                    Thread.sleep(500);
                }
                while (System.currentTimeMillis() - start < 72_000) {
                    producer.send(record(topic, "flaky", "flaky-ok-" + flakySuccesses++, Success.newBuilder().build(), null));
                    Thread.sleep(1_000);
                }
            }
            List<RetryRequest> paced = new ArrayList<>();
            List<RetryRequest> flaky = new ArrayList<>();
            List<RetryRequest> steady = new ArrayList<>();
            List<Long> pacedAt = new ArrayList<>();
            List<Long> flakyAt = new ArrayList<>();
            Deserializer<RetryRequest> retries = AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer();
            for (ConsumerRecord<String, RetryRequest> record : readUntilQuiet(prefix + TopicNames.RETRY_READY, retries)) {
                RetryRequest retry = record.value();
                assertThat(record.timestamp()).as("released at or after due: %s", retry.getTaskId())
                        .isGreaterThanOrEqualTo(retry.getDueAt());
                String provider = retry.getAgentResult().getExecution().getProvider();
                (provider.equals("acme") ? paced : provider.equals("flaky") ? flaky : steady).add(retry);
                (provider.equals("acme") ? pacedAt : provider.equals("flaky") ? flakyAt : new ArrayList<Long>()).add(record.timestamp());
            }
            List<ProviderHealth> changes = readUntilQuiet(prefix + TopicNames.PROVIDER_HEALTH,
                    AvroSerde.specific(ProviderHealth.class).configured(serde, false).deserializer()).stream()
                    .map(ConsumerRecord::value).toList();

            // another provider flows throughout
            assertThat(steady).hasSize(10);
            // paced: none before the reset, at most 100 in the minute from the first, and no more than the budget since
            assertThat(paced).extracting(RetryRequest::getTaskId).doesNotHaveDuplicates();
            long first = pacedAt.stream().mapToLong(Long::longValue).min().orElseThrow();
            assertThat(first).isGreaterThanOrEqualTo(start + 5_000);
            long inFirstMinute = pacedAt.stream().filter(at -> at < first + 60_000).count();
            assertThat(inFirstMinute).isBetween(90L, 100L);
            long last = pacedAt.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat((long) paced.size()).isLessThanOrEqualTo(2 + (last - first) * 99 / 60_000);
            // the flaky provider: open, half-open, closed; its retries each once, the probes at half-open, the rest after
            assertThat(changes).filteredOn(change -> change.getProvider().equals("flaky")).extracting(ProviderHealth::getState)
                    .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
            assertThat(changes).allSatisfy(change -> assertThat(change.getProvider()).isEqualTo("flaky"));
            ProviderHealth halfOpen = changes.get(1);
            ProviderHealth closed = changes.get(2);
            assertThat(halfOpen.getAt() - changes.get(0).getAt()).isBetween(30_000L, 31_000L);
            assertThat(flaky).hasSize(flakyFailures).extracting(RetryRequest::getTaskId).doesNotHaveDuplicates();
            assertThat(flakyAt.stream().filter(at -> at > changes.get(0).getAt() + 10_000 && at < closed.getAt()).count())
                    .as("released while open or half-open (the probes)").isLessThanOrEqualTo(5);

            JsonNode providers = new ObjectMapper().readTree(get(service, "/providers"));
            JsonNode acme = null;
            for (JsonNode scope : providers.get("providers")) {
                if (scope.get("provider").asText().equals("acme")) {
                    acme = scope;
                }
            }
            assertThat(acme).isNotNull();
            assertThat(acme.get("held").asLong()).isEqualTo(PACED - paced.size());
            assertThat(acme.get("budgets").get(0).get("limit").asLong()).isEqualTo(100);
            assertThat(scrapeSum(service, "agent_outcomes_provider_circuit_transitions_total",
                    "gen_ai_provider_name=\"flaky\",gen_ai_request_model=\"m1\",to=\"open\"")).isEqualTo(1);
        }
    }

    private static ProducerRecord<String, AgentResult> record(String topic, String provider, String task, Object outcome,
                                                              RateLimitState rateLimit) {
        return new ProducerRecord<>(topic, task, AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent")
                .setTaskId(task).setDialect(Dialect.VAT_ENVELOPE).setRateLimit(rateLimit).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).build());
    }

    /** Every record of a topic (read_committed), read until none has come for 3 s. */
    private static <V> List<ConsumerRecord<String, V>> readUntilQuiet(String topic, Deserializer<V> values) {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, V>> records = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(config, new StringDeserializer(), values)) {
            consumer.subscribe(List.of(topic));
            long quietSince = System.currentTimeMillis();
            while (System.currentTimeMillis() - quietSince < 3_000) {
                ConsumerRecords<String, V> polled = consumer.poll(Duration.ofMillis(200));
                if (!polled.isEmpty()) {
                    polled.forEach(records::add);
                    quietSince = System.currentTimeMillis();
                }
            }
        }
        return records;
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }

    private static String get(AgentOutcomesService service, String path) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> answers = new ArrayList<>();
        String[] body = new String[1];
        waitForCondition(() -> {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                answers.add(response.statusCode() + " " + response.body());
                body[0] = response.body();
                return response.statusCode() == 200;
            } catch (IOException e) {
                answers.add(e.toString());
                return false;
            }
        }, 30_000, () -> path + " 200; answers " + answers);
        return body[0];
    }
}
