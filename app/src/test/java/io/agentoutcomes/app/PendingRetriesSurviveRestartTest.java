package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Retries pending when the service stops are forwarded once after it restarts, none early. */
class PendingRetriesSurviveRestartTest extends ServiceOnTestBroker {
    @Test
    void retriesPendingWhenTheServiceStopsAreForwardedOnceAfterItRestartsNoneEarly() throws Exception {
        AppConfig config = config("retries", Map.of("backoff.base.llm-timeout.ms", "6000"));
        String prefix = config.topicPrefix();
        int tasks = 20;

        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < tasks; i++) {
                    AgentResult failure = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("a").setTaskId("task-" + i)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build();
                    ProducerRecord<String, AgentResult> record = new ProducerRecord<>(prefix + "agent-results",
                            failure.getTaskId(), failure);
                    record.headers().add("traceparent", traceparent(i).getBytes(StandardCharsets.UTF_8));
                    producer.send(record).get();
                }
            }
            // A 6 s delay waits on the shortest declared tier that holds it (retry.tiers: 1s, 2s, 5s, 10s, 30s).
            long firstDue = readAll(prefix + TopicNames.retryDelay("10s"), tasks, AvroSerde.specific(RetryRequest.class)
                    .configured(serde, false).deserializer()).stream()
                    .mapToLong(r -> r.value().getDueAt()).min().orElseThrow();
            assertThat(System.currentTimeMillis()).as("every retry still pending when the service stops").isLessThan(firstDue);
        }

        try (AgentOutcomesService restarted = AgentOutcomesService.start(config)) {
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, restarted.schemaRegistryUrl());
            List<ConsumerRecord<String, RetryRequest>> ready = readAll(prefix + "retry-ready", tasks,
                    AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer());
            assertThat(ready).extracting(r -> r.value().getResultId()).doesNotHaveDuplicates().hasSize(tasks);
            assertThat(ready).allSatisfy(r -> assertThat(r.timestamp())
                    .as("forwarded at or after its due time").isGreaterThanOrEqualTo(r.value().getDueAt()));
            assertThat(ready).allSatisfy(r -> assertThat(r.value().getDelayMs()).isEqualTo(6_000L));
            // The trace context and the retry's identity survive the delay, the scheduler's store and the restart.
            assertThat(ready).allSatisfy(r -> {
                int task = Integer.parseInt(r.value().getTaskId().substring("task-".length()));
                assertThat(headers(r)).containsEntry("traceparent", traceparent(task))
                        .containsEntry("task-id", "task-" + task).containsEntry("attempt", "1")
                        .containsEntry("due-at", Instant.ofEpochMilli(r.value().getDueAt()).toString())
                        .doesNotContainKeys("result-id", "origin-topic", "origin-partition", "origin-offset");
            });
            Thread.sleep(2_000);
            assertThat(readAll(prefix + "retry-ready", tasks, AvroSerde.specific(RetryRequest.class)
                    .configured(serde, false).deserializer())).as("nothing forwarded twice").hasSize(tasks);
        }
    }
}
