package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The declared tiers ({@code retry.tiers}) name the delay topics: a restart with other tiers must not strand the
 * retries waiting on a tier only the old settings made (issue 19 item 3).
 */
class RetryTierChangeTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void retriesInFlightOnATierRetiredByOtherTiersAreForwardedOnceAfterTheRestartNoneEarly() throws Exception {
        String prefix = "tiers-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        Map<String, String> settings = new HashMap<>(Map.of(ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix));
        Map<String, String> withTier8s = new HashMap<>(settings);
        withTier8s.put("retry.tiers", "1s,2s,5s,8s");
        String retired = prefix + TopicNames.retryDelay("8s");
        int retries = 20;
        List<byte[]> inFlight = new ArrayList<>();
        Map<String, Long> dueAt = new HashMap<>();

        // Tiers 1s, 2s, 5s, 8s, long. The retries are encoded as that service would write them.
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 2, withTier8s))) {
            awaitHealthy(service);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get()).contains(retired);
            }
            var serializer = AvroSerde.specific(RetryRequest.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl()), false).serializer();
            long now = System.currentTimeMillis();
            for (int i = 0; i < retries; i++) {
                long due = now + 20_000 + i * 100L;
                RetryRequest retry = RetryRequest.newBuilder().setTaskId("task-" + i).setResultId("r-" + i).setNextAttempt(1)
                        .setErrorCode("llm-unavailable").setDelayMs(8_000L).setDelayReason("backoff 10000 ms x 2^0, capped")
                        .setTier("8s").setFailedAt(due - 8_000).setDueAt(due).setReason("Model error, retrying (1/5)").build();
                inFlight.add(serializer.serialize(retired, retry));
                dueAt.put("r-" + i, due);
            }
        }
        // Written while no service runs: in flight on 8s, read by nobody yet.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < retries; i++) {
                producer.send(new ProducerRecord<>(retired, "task-" + i, inFlight.get(i))).get();
            }
        }

        // The default tiers: 1s, 2s, 5s, 10s, 30s, long; no 8s.
        AppConfig defaults = TestServiceConfig.on(kafka, dataDir, 2, settings);
        assertThat(defaults.pipeline().retry().tiers().names()).doesNotContain("8s");
        try (AgentOutcomesService restarted = AgentOutcomesService.start(defaults)) {
            awaitHealthy(restarted);
            var deserializer = AvroSerde.specific(RetryRequest.class)
                    .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl()), false)
                    .deserializer();
            List<ConsumerRecord<String, RetryRequest>> ready = new ArrayList<>();
            try (KafkaConsumer<String, RetryRequest> consumer = new KafkaConsumer<>(Map.of(
                    "bootstrap.servers", kafka.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), deserializer)) {
                consumer.subscribe(List.of(prefix + TopicNames.RETRY_READY));
                waitForCondition(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(ready::add);
                    return ready.size() >= retries;
                }, 60_000, () -> "retries forwarded: " + ready.size() + " of " + retries);
                // Anything forwarded twice would follow within a few scheduler checks and commits.
                long settle = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                while (System.nanoTime() < settle) {
                    consumer.poll(Duration.ofMillis(200)).forEach(ready::add);
                }
            }
            assertThat(ready).extracting(r -> r.value().getResultId()).as("every retry of the retired tier, once")
                    .containsExactlyInAnyOrderElementsOf(dueAt.keySet());
            assertThat(ready).allSatisfy(r -> assertThat(r.timestamp()).as("forwarded at or after its due time")
                    .isGreaterThanOrEqualTo(dueAt.get(r.value().getResultId())));
        }
    }

    private static void awaitHealthy(AgentOutcomesService service) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(service.httpUrl() + "/health")).build();
        waitForCondition(() -> http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200, 60_000,
                "/health 200 within 60 s");
    }
}
