package io.agentoutcomes.bench;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.kafka.EmbeddedKafkaBroker;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * What the analytics stage costs in throughput: the same load of agent results (default 100 000) through the whole
 * pipeline (exactly-once, embedded broker, 4 partitions) with analytics off and on, alternating, in one run; the
 * time is from the first record produced to the last classified outcome committed. Measured, never asserted.
 *
 * <pre>./mvnw -B -q -DskipTests install && ./mvnw -B -q -pl bench exec:java \
 *   -Dbench.main=io.agentoutcomes.bench.AnalyticsCostBenchmark [-Dexec.args="100000 2"]</pre>
 */
public final class AnalyticsCostBenchmark {

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Path dir = Files.createTempDirectory("agent-outcomes-analytics-bench");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"), 0)) {
            for (int round = 1; round <= rounds; round++) {
                for (boolean analytics : List.of(false, true)) {
                    double seconds = run(broker.bootstrapServers(), dir, records, analytics);
                    System.out.printf("round %d, analytics %-3s: %,d results in %.2f s = %,.0f results/s%n", round,
                            analytics ? "on" : "off", records, seconds, records / seconds);
                }
            }
        }
    }

    private static double run(String bootstrap, Path dir, int records, boolean analytics) throws Exception {
        String prefix = "bench-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.BOOTSTRAP_SERVERS, bootstrap,
                ConfigLoader.APPLICATION_ID, prefix + "app",
                ConfigLoader.TOPIC_PREFIX, prefix,
                ConfigLoader.TOPIC_PARTITIONS, "4",
                ConfigLoader.DATA_DIR, dir.resolve(prefix).toString(),
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0",
                "analytics.enabled", String.valueOf(analytics)));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            while (service.streamsState() != KafkaStreams.State.RUNNING) {
                Thread.sleep(50);
            }
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            String[] agents = {"summarizer", "reviewer", "planner", "coder", "tester"};
            String[] models = {"gpt-4o-mini", "claude-haiku", "llama-4-scout"};
            long start = System.nanoTime();
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.LINGER_MS_CONFIG, 5,
                    ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < records; i++) {
                    AgentResult result = AgentResult.newBuilder().setResultId("r-" + i).setAgentId(agents[i % agents.length])
                            .setTaskId("task-" + i)
                            .setExecution(ExecutionMetadata.newBuilder().setModel(models[i % models.length])
                                    .setProvider("openai").setDurationMs(100L + i % 900)
                                    .setUsage(Usage.newBuilder().setInputTokens(500L).setOutputTokens(80L).setCacheReadTokens(100L).build())
                                    .setCost(Cost.newBuilder().setTotal(new BigDecimal("0.000120000000"))
                                            .setSource(CostSource.REPORTED).build()).build())
                            .setOutcome(i % 10 == 0 ? Failure.newBuilder().setError(ErrorInfo.newBuilder()
                                    .setCode("llm-refusal").build()).build() : Success.newBuilder().build())
                            .build();
                    producer.send(new ProducerRecord<>(prefix + "agent-results", result.getTaskId(), result));
                }
            }
            long seen = 0;
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ConsumerConfig.GROUP_ID_CONFIG, prefix + "reader",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                    new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
                consumer.subscribe(List.of(prefix + "outcomes-classified"));
                long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
                while (seen < records && System.nanoTime() < deadline) {
                    seen += consumer.poll(Duration.ofMillis(100)).count();
                }
            }
            if (seen < records) {
                throw new IllegalStateException("only " + seen + " of " + records + " outcomes arrived");
            }
            return (System.nanoTime() - start) / 1e9;
        }
    }
}
