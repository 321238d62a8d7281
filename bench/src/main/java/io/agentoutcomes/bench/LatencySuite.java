package io.agentoutcomes.bench;

import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.topic.Topics;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * End-to-end latency, publish to {@code outcomes-classified}: Avro agent results published at a steady rate (half the
 * pipeline's measured maximum, or {@code --rate}), each stamped with its send time; a read_committed consumer records
 * the time from that stamp to when it sees the record's outcome (Kafka Streams keeps the input's timestamp). The
 * maximum is measured with the JVM warm (a first burst is processed and not counted: measured cold, the maximum is a
 * sixth of the warm one), and the first seconds at the rate are a warm-up and not counted either.
 */
@Command(name = "latency", description = "Publish -> outcomes-classified p50/p99 at half the maximum rate (or --rate).",
        mixinStandardHelpOptions = true)
final class LatencySuite extends ClusterSuite<LatencySuite.Result> {
    @Option(names = "--rate", description = "Records per second to publish (default: half the measured maximum).")
    Integer rate;

    @Option(names = "--max-records", description = "Records of the maximum-rate measurement (default: ${DEFAULT-VALUE}).")
    long maxRecords = 500_000;

    @Option(names = "--warmup-records", description = "Records processed before the maximum is measured (default: ${DEFAULT-VALUE}).")
    long warmupRecords = 1_000_000;

    @Option(names = "--seconds", description = "How long to publish at the rate (default: ${DEFAULT-VALUE}).")
    int seconds = 30;

    @Option(names = "--warmup-seconds", description = "Not counted, at the start (default: ${DEFAULT-VALUE}).")
    int warmupSeconds = 5;

    @Option(names = "--partitions", description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--set", description = "A further service setting, key=value (Kafka Streams settings such as commit.interval.ms).")
    Map<String, String> settings = new HashMap<>();

    /** What one run measured. */
    record Result(double maxRate, double rate, long count, double p50, double p99, double max) {
    }

    @Override
    void applyQuick() {
        if (common.quick) {
            maxRecords = Math.min(maxRecords, 2_000);
            warmupRecords = Math.min(warmupRecords, 1_000);
            seconds = 5;
            warmupSeconds = 1;
        }
    }

    @Override
    Result run(BenchCluster cluster, PrintStream out) throws Exception {
        String prefix = "lat-" + System.currentTimeMillis() % 100_000 + ".";
        String input = prefix + TopicNames.AGENT_RESULTS;
        String output = prefix + TopicNames.OUTCOMES_CLASSIFIED;
        out.printf(Locale.ROOT, "== latency: publish -> %s (read_committed), %d partitions, %s%n", TopicNames.OUTCOMES_CLASSIFIED,
                partitions, cluster.describe());
        TopicProvisioner.ensure(cluster.clientConfig(), List.of(
                new TopicProvisioner.TopicSpec(input, partitions, Topics.Cleanup.DELETE),
                new TopicProvisioner.TopicSpec(output, partitions, Topics.Cleanup.DELETE)), (short) -1);
        Path dataDir = cluster.dir().resolve(prefix + "app");
        Serializer<AgentResult> serializer = AvroSerde.specific(AgentResult.class)
                .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl()), false).serializer();
        try (AppUnderTest app = AppUnderTest.pipeline(cluster, prefix + "app", prefix, partitions, dataDir, settings);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(cluster), new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            app.awaitRunning(Duration.ofMinutes(2));
            long next = 0;
            double maxRate;
            try (OutputCounter counter = new OutputCounter(cluster.bootstrapServers(), output)) {
                for (; next < warmupRecords; next++) {
                    producer.send(record(input, serializer, next, System.currentTimeMillis()));
                }
                producer.flush();
                counter.await(warmupRecords, Duration.ofSeconds(120 + warmupRecords / 500), null);
            }
            try (OutputCounter counter = new OutputCounter(cluster.bootstrapServers(), output)) {
                long start = System.nanoTime();
                for (long end = next + maxRecords; next < end; next++) {
                    producer.send(record(input, serializer, next, System.currentTimeMillis()));
                }
                producer.flush();
                long end = counter.await(maxRecords, Duration.ofSeconds(120 + maxRecords / 500), null);
                maxRate = maxRecords / ((end - start) / 1e9);
            }
            double target = rate != null ? rate : maxRate / 2;
            out.printf(Locale.ROOT, "maximum (after %,d records of warm-up): %,d records published at once, all classified at %,.0f rec/s; "
                    + "publishing at %,.0f rec/s for %d s (%s)%n", warmupRecords, maxRecords, maxRate, target, seconds,
                    rate != null ? "--rate" : "half the maximum");

            Histogram latency = new Histogram(600_000L, 3);
            long total = (long) (target * seconds);
            long first = next;
            long countedFrom = System.currentTimeMillis() + warmupSeconds * 1000L;
            AtomicReference<Exception> failed = new AtomicReference<>();
            try (OutputCounter counter = new OutputCounter(cluster.bootstrapServers(), output)) {
                Thread publisher = new Thread(() -> {
                    try {
                        long begin = System.nanoTime();
                        for (long sent = 0; sent < total; ) {
                            double elapsed = (System.nanoTime() - begin) / 1e9;
                            long due = Math.min(total, (long) (elapsed * target) + 1);
                            for (; sent < due; sent++) {
                                producer.send(record(input, serializer, first + sent, System.currentTimeMillis()));
                            }
                            Thread.sleep(1);
                        }
                        producer.flush();
                    } catch (Exception e) {
                        failed.set(e);
                    }
                }, "latency-publisher");
                publisher.start();
                AtomicLong counted = new AtomicLong();
                counter.await(total, Duration.ofSeconds(seconds + 120L), record -> {
                    if (record.timestamp() >= countedFrom) {
                        latency.recordValue(Math.max(0, System.currentTimeMillis() - record.timestamp()));
                        counted.incrementAndGet();
                    }
                });
                publisher.join();
                if (failed.get() != null) {
                    throw failed.get();
                }
                Result result = new Result(maxRate, target, counted.get(), latency.getValueAtPercentile(50),
                        latency.getValueAtPercentile(99), latency.getMaxValue());
                out.printf(Locale.ROOT, "latency at %,.0f rec/s, %,d records after a %d s warm-up: p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                        result.rate(), result.count(), warmupSeconds, result.p50(), result.p99(), result.max());
                return result;
            }
        } finally {
            BenchCluster.deleteQuietly(dataDir);
        }
    }

    /** An agent's producer, as a latency-minded one would be set up. */
    private static Map<String, Object> producerConfig(BenchCluster cluster) {
        Map<String, Object> config = new HashMap<>(cluster.clientConfig());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return config;
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, Serializer<AgentResult> serializer, long i, long now) {
        AgentResult result = Workload.avro(i, 1000);
        return new ProducerRecord<>(topic, null, now, result.getTaskId().getBytes(StandardCharsets.UTF_8),
                serializer.serialize(topic, result));
    }
}
