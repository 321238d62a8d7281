package io.agentoutcomes.bench;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * How late the retry scheduler forwards: N retries (default 100 000) are written to the delay topics, all pending at
 * once, due over a window of seconds; the service (embedded broker and registry, exactly-once) forwards them to
 * retry-ready. Reports, per retry, how long after its due time it was forwarded (the record's timestamp) and when a
 * read_committed consumer saw it, as p50/p99/max, and how many were early. Measured, never asserted.
 *
 * <pre>./mvnw -B -q -DskipTests install && ./mvnw -B -q -pl bench exec:java [-Dexec.args="100000 30"]</pre>
 */
public final class RetrySchedulerLatenessBenchmark {

    public static void main(String[] args) throws Exception {
        int retries = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int windowSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path dataDir = Files.createTempDirectory("agent-outcomes-bench");
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.EMBEDDED_KAFKA_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0",
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.TOPIC_PARTITIONS, "4"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitRunning(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            String delayTopic = Topics.RETRY_DELAY_PREFIX + "30s";
            AgentResult envelope = AgentResult.newBuilder().setResultId("r").setAgentId("bench-agent").setTaskId("t")
                    .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build())
                    .build();

            Instant firstDue = Instant.now().plusSeconds(15);
            long spreadMs = windowSeconds * 1000L;
            long writeStart = System.nanoTime();
            try (KafkaProducer<String, RetryRequest> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, service.bootstrapServers(),
                    ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
                    new StringSerializer(), AvroSerde.specific(RetryRequest.class).configured(serde, false).serializer())) {
                for (int i = 0; i < retries; i++) {
                    Instant due = firstDue.plusMillis(spreadMs * i / retries);
                    RetryRequest retry = RetryRequest.newBuilder().setTaskId("task-" + i).setResultId("r-" + i)
                            .setAgentId("bench-agent").setNextAttempt(1).setErrorCode("llm-timeout").setDelayMs(0)
                            .setDelayReason("benchmark").setTier("30s").setFailedAt(firstDue).setDueAt(due)
                            .setReason("benchmark").setAgentResult(envelope).build();
                    producer.send(new ProducerRecord<>(delayTopic, retry.getTaskId(), retry));
                }
                producer.flush();
            }
            System.out.printf("wrote %d retries in %d ms; first due in %d ms, last %d s later%n", retries,
                    (System.nanoTime() - writeStart) / 1_000_000, Duration.between(Instant.now(), firstDue).toMillis(),
                    windowSeconds);

            Histogram forwarded = new Histogram(3_600_000L, 3);
            Histogram visible = new Histogram(3_600_000L, 3);
            long early = 0;
            Set<String> seen = new HashSet<>();
            try (KafkaConsumer<String, RetryRequest> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, service.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID(),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                    new StringDeserializer(), AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer())) {
                consumer.subscribe(List.of(Topics.RETRY_READY));
                long deadline = System.currentTimeMillis() + spreadMs + 120_000;
                while (seen.size() < retries && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<String, RetryRequest> record : consumer.poll(Duration.ofMillis(100))) {
                        long now = System.currentTimeMillis();
                        long due = record.value().getDueAt().toEpochMilli();
                        if (!seen.add(record.value().getResultId())) {
                            continue;
                        }
                        if (record.timestamp() < due) {
                            early++;
                        } else {
                            forwarded.recordValue(record.timestamp() - due);
                        }
                        visible.recordValue(Math.max(0, now - due));
                    }
                }
            }
            System.out.printf("retries forwarded: %d of %d, early: %d%n", seen.size(), retries, early);
            System.out.printf("forwarded after due (record timestamp - due): p50 %d ms, p99 %d ms, max %d ms%n",
                    forwarded.getValueAtPercentile(50), forwarded.getValueAtPercentile(99), forwarded.getMaxValue());
            System.out.printf("visible after due (read_committed consumer):  p50 %d ms, p99 %d ms, max %d ms%n",
                    visible.getValueAtPercentile(50), visible.getValueAtPercentile(99), visible.getMaxValue());
        }
    }

    private static void awaitRunning(AgentOutcomesService service) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (service.streamsState() != org.apache.kafka.streams.KafkaStreams.State.RUNNING
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
    }
}
