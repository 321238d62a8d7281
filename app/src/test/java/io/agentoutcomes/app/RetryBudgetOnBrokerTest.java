package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 33's Done-when for the retry budget, on a real broker with time compressed by settings (a 5 s window, a floor
 * of 1 a second, a 15 s max hold, rate limits retried after 1 s): a provider failing 50 % of 1 000 requests over 20 s
 * with retryable errors (rate limits advertising no window: neither paced nor a circuit's failures) gets at most its
 * budget of retries released in any window, read from {@code retry-ready} with {@code read_committed}; each of its
 * retries is released or stopped once, none early; another provider's retries flow meanwhile.
 */
class RetryBudgetOnBrokerTest extends ServiceOnTestBroker {
    private static final long WINDOW_MS = 5_000;
    private static final int RESERVE = 5;
    private static final long MAX_HOLD_MS = 15_000;
    /** The longest a tally of outcomes takes to reach the gate (sent each second, then a repartition topic). */
    private static final long SIGNAL_SLACK_MS = 3_000;

    @Test
    void aProviderFailingHalfOfItsRequestsGetsAtMostItsBudgetOfRetriesInAnyWindowEachReleasedOrStoppedOnce() throws Exception {
        AppConfig config = config("budget", Map.of("provider.retry.budget.window.ms", String.valueOf(WINDOW_MS),
                "provider.retry.budget.min.per.second", "1", "provider.retry.budget.max.hold.ms", String.valueOf(MAX_HOLD_MS),
                "backoff.base.llm-rate-limit.ms", "1000"));
        String prefix = config.topicPrefix();
        List<Long> acmeSentAt = new ArrayList<>();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            String topic = prefix + TopicNames.AGENT_RESULTS;
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                // 1 000 requests of acme over 20 s, every other one a rate limit; one of another provider's a second
                long start = System.currentTimeMillis();
                for (int i = 0; i < 1_000; i++) {
                    long due = start + i * 20L;
                    Thread.sleep(Math.max(0, due - System.currentTimeMillis()));
                    producer.send(record(topic, "acme", "acme-" + i, i % 2 == 0 ? failure() : Success.newBuilder().build()));
                    acmeSentAt.add(System.currentTimeMillis());
                    if (i % 50 == 0) {
                        producer.send(record(topic, "other", "other-" + i / 50, failure()));
                    }
                }
            }
            Deserializer<RetryRequest> retries = AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer();
            Deserializer<ClassifiedOutcome> outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false)
                    .deserializer();
            List<ConsumerRecord<String, byte[]>> ready = new ArrayList<>();
            List<ConsumerRecord<String, byte[]>> dead = new ArrayList<>();
            readUntil(prefix, ready, dead, () -> ready.size() + dead.size() >= 520, Duration.ofSeconds(60));

            List<Long> acmeReleasedAt = new ArrayList<>();
            Set<String> acmeReleased = new HashSet<>();
            int otherReleased = 0;
            for (ConsumerRecord<String, byte[]> record : ready) {
                RetryRequest retry = retries.deserialize(record.topic(), record.headers(), record.value());
                assertThat(record.timestamp()).as("released at or after due: %s", retry.getTaskId()).isGreaterThanOrEqualTo(retry.getDueAt());
                if (retry.getAgentResult().getExecution().getProvider().equals("acme")) {
                    assertThat(acmeReleased.add(retry.getTaskId())).as("released once: %s", retry.getTaskId()).isTrue();
                    acmeReleasedAt.add(record.timestamp());
                } else {
                    otherReleased++;
                    // within the other provider's own reserve: released when due, not held behind acme's
                    assertThat(record.timestamp() - retry.getDueAt()).as("other's retry held").isLessThan(2_000);
                }
            }
            Set<String> acmeStopped = new HashSet<>();
            for (ConsumerRecord<String, byte[]> record : dead) {
                ClassifiedOutcome stopped = outcomes.deserialize(record.topic(), record.headers(), record.value());
                assertThat(stopped.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_BUDGET_EXHAUSTED);
                assertThat(stopped.getAgentResult().getExecution().getProvider()).isEqualTo("acme");
                assertThat(acmeStopped.add(stopped.getTaskId())).as("stopped once: %s", stopped.getTaskId()).isTrue();
            }

            assertThat(otherReleased).isEqualTo(20);
            assertThat(acmeStopped).doesNotContainAnyElementsOf(acmeReleased);
            assertThat(acmeReleased.size() + acmeStopped.size()).isEqualTo(500);
            // the budget bit: at 20 % of 50 a second and 1 a second it cannot release half the requests
            assertThat(acmeStopped).isNotEmpty();
            // in any window, at most 20 % of the requests the gate can have counted at its end, and the reserve
            long busiest = 0;
            long busiestBound = 0;
            for (long from : acmeReleasedAt) {
                long released = acmeReleasedAt.stream().filter(at -> at >= from && at < from + WINDOW_MS).count();
                long requests = acmeSentAt.stream().filter(at -> at >= from - WINDOW_MS - SIGNAL_SLACK_MS && at < from + WINDOW_MS).count();
                assertThat(released).as("released in the %d ms from %d (requests %d)", WINDOW_MS, from, requests)
                        .isLessThanOrEqualTo(requests / 5 + RESERVE);
                if (released > busiest) {
                    busiest = released;
                    busiestBound = requests / 5 + RESERVE;
                }
            }
            // seen from outside: /providers and /metrics count the stops of the scope
            HttpResponse<String> providers = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.httpUrl() + "/providers")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(providers.statusCode()).isEqualTo(200);
            JsonNode acme = null;
            for (JsonNode scope : new ObjectMapper().readTree(providers.body()).get("providers")) {
                if (scope.get("provider").asText().equals("acme")) {
                    acme = scope;
                }
            }
            assertThat(acme).isNotNull();
            assertThat(acme.get("budgetStopped").asLong()).isEqualTo(acmeStopped.size());
            assertThat(acme.get("held").asLong()).isZero();
            assertThat(acme.get("retrySlices").isArray()).isTrue();
            assertThat(scrapeSum(service, "agent_outcomes_provider_retries_budget_stopped_total",
                    "gen_ai_provider_name=\"acme\",gen_ai_request_model=\"m1\"")).isEqualTo(acmeStopped.size());
            System.out.printf("RetryBudgetOnBrokerTest: acme released %d, stopped %d; busiest %d ms window %d released "
                    + "(bound %d); other released %d%n", acmeReleased.size(), acmeStopped.size(), WINDOW_MS, busiest, busiestBound,
                    otherReleased);
        }
    }

    private static ProducerRecord<String, AgentResult> record(String topic, String provider, String task, Object outcome) {
        return new ProducerRecord<>(topic, task, AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent")
                .setTaskId(task).setDialect(Dialect.VAT_ENVELOPE).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).build());
    }

    private static Failure failure() {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-rate-limit").build()).build();
    }

    /** Reads retry-ready and dead-letter (read_committed) until {@code done} or the timeout, then 2 s more. */
    private static void readUntil(String prefix, List<ConsumerRecord<String, byte[]>> ready, List<ConsumerRecord<String, byte[]>> dead,
                                  BooleanSupplier done, Duration timeout) {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(prefix + TopicNames.RETRY_READY, prefix + TopicNames.DEAD_LETTER));
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            long quietUntil = Long.MAX_VALUE;
            while (System.currentTimeMillis() < Math.min(deadline, quietUntil)) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    (record.topic().endsWith(TopicNames.DEAD_LETTER) ? dead : ready).add(record);
                }
                if (quietUntil == Long.MAX_VALUE && done.getAsBoolean()) {
                    quietUntil = System.currentTimeMillis() + 2_000;
                }
            }
        }
    }
}
