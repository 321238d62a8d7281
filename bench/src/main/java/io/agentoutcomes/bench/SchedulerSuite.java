package io.agentoutcomes.bench;

import io.agentoutcomes.app.config.AnalyticsConfig;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.schedule.RetryScheduler;
import io.agentoutcomes.topology.topic.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The retry scheduler with many retries pending: N retry requests written to a delay topic, all due after a lead time
 * long enough for every one to be in the scheduler's store first, due evenly over a window; the service forwards each
 * to {@code retry-ready} when due. Per retry: how long after its due time it was forwarded (its record timestamp) and
 * when a read_committed consumer saw it; how many were early (must be none); the heap and the store's disk size with
 * all of them pending.
 */
@Command(name = "scheduler", description = "Retry scheduler lateness, early count, heap and store size at N pending.",
        mixinStandardHelpOptions = true)
final class SchedulerSuite extends ClusterSuite<List<SchedulerSuite.Result>> {
    @Option(names = "--pending", split = ",", description = "Retries pending at once, one run each (default: ${DEFAULT-VALUE}).")
    List<Integer> pending = new ArrayList<>(List.of(10_000, 100_000, 1_000_000));

    @Option(names = "--window-seconds", description = "The retries fall due evenly over this window (default: ${DEFAULT-VALUE}).")
    int windowSeconds = 30;

    @Option(names = "--partitions", description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions = 4;

    /** What one run measured. */
    record Result(int pending, long early, long forwardedP50, long forwardedP99, long forwardedMax, long visibleP50,
                  long visibleP99, long visibleMax, long heapDelta, long storeBytes, boolean allPendingBeforeDue) {
    }

    @Override
    void applyQuick() {
        if (common.quick) {
            pending = List.of(2_000);
            windowSeconds = 2;
        }
    }

    @Override
    List<Result> run(BenchCluster cluster, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "== scheduler: %s pending, due over %d s, %d partitions, %s%n", pending, windowSeconds, partitions,
                cluster.describe());
        List<Result> results = new ArrayList<>();
        for (int n : pending) {
            results.add(runOne(cluster, n, out));
        }
        out.println();
        out.println("| pending | early | forwarded after due p50 / p99 / max | seen by read_committed consumer p50 / p99 / max "
                + "| heap with all pending (live, over the idle service) | retry-pending store on disk |");
        out.println("|---|---|---|---|---|---|");
        for (Result r : results) {
            out.printf(Locale.ROOT, "| %,d%s | %d | %d / %d / %d ms | %d / %d / %d ms | %s | %s |%n", r.pending(),
                    r.allPendingBeforeDue() ? "" : " (not all loaded before the first was due)", r.early(),
                    r.forwardedP50(), r.forwardedP99(), r.forwardedMax(), r.visibleP50(), r.visibleP99(), r.visibleMax(),
                    Measures.mib(r.heapDelta()), Measures.mib(r.storeBytes()));
        }
        return results;
    }

    private Result runOne(BenchCluster cluster, int n, PrintStream out) throws Exception {
        String prefix = "sched-" + System.currentTimeMillis() % 100_000 + "-" + n + ".";
        String applicationId = prefix + "app";
        Path dataDir = cluster.dir().resolve(applicationId);
        String tier = RetryPolicy.defaults().tiers().names().get(0);
        String delayTopic = prefix + TopicNames.RETRY_DELAY_PREFIX + tier;
        TopicProvisioner.ensure(cluster.clientConfig(), List.of(
                new TopicProvisioner.TopicSpec(prefix + TopicNames.RETRY_READY, partitions, Topics.Cleanup.DELETE)), (short) -1);
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        try (OutputCounter ready = new OutputCounter(cluster.bootstrapServers(), prefix + TopicNames.RETRY_READY);
             AppUnderTest app = AppUnderTest.pipeline(cluster, applicationId, prefix, partitions, dataDir,
                     Map.of(AnalyticsConfig.ANALYTICS_ENABLED, "false"))) {
            app.awaitRunning(Duration.ofMinutes(2));
            long heapBefore = Measures.heapLiveBytes();
            // Long enough to write all and for the scheduler to store all before the first is due.
            long leadMs = common.quick ? 5_000 : Math.max(20_000, n / 10L);
            Instant firstDue = Instant.now().plusMillis(leadMs);
            long spreadMs = windowSeconds * 1000L;
            long writeStart = System.nanoTime();
            write(cluster, serde, delayTopic, tier, n, firstDue, spreadMs);
            out.printf(Locale.ROOT, "%,d pending: written in %.1f s; first due in %d ms, last %d s later%n", n,
                    (System.nanoTime() - writeStart) / 1e9, Duration.between(Instant.now(), firstDue).toMillis(), windowSeconds);
            boolean allLoaded = awaitConsumed(cluster, applicationId, delayTopic, firstDue);
            long heapPending = Measures.heapLiveBytes();
            long store = storeBytes(dataDir);
            out.printf(Locale.ROOT, "%,d pending: %s; heap live %s (idle service %s); store on disk %s; process RSS %s%n", n,
                    allLoaded ? "all in the store before the first was due" : "NOT all in the store when the first was due",
                    Measures.mib(heapPending), Measures.mib(heapBefore), Measures.mib(store), Measures.mib(rssBytes()));

            Histogram forwarded = new Histogram(3_600_000L, 3);
            Histogram visible = new Histogram(3_600_000L, 3);
            long[] early = {0};
            Set<String> seen = new HashSet<>();
            Deserializer<RetryRequest> retries = AvroSerde.specific(RetryRequest.class).configured(serde, false).deserializer();
            ready.await(n, Duration.ofMillis(leadMs + spreadMs + 180_000), record -> {
                long now = System.currentTimeMillis();
                RetryRequest retry = retries.deserialize(record.topic(), record.value());
                if (!seen.add(retry.getResultId())) {
                    throw new IllegalStateException("retry " + retry.getResultId() + " forwarded twice");
                }
                long due = retry.getDueAt();
                if (record.timestamp() < due) {
                    early[0]++;
                } else {
                    forwarded.recordValue(record.timestamp() - due);
                }
                visible.recordValue(Math.max(0, now - due));
            });
            Result result = new Result(n, early[0], forwarded.getValueAtPercentile(50), forwarded.getValueAtPercentile(99),
                    forwarded.getMaxValue(), visible.getValueAtPercentile(50), visible.getValueAtPercentile(99),
                    visible.getMaxValue(), heapPending - heapBefore, store, allLoaded);
            out.printf(Locale.ROOT, "%,d pending: forwarded %,d, early %d; after due: forwarded p50 %d / p99 %d / max %d ms, "
                            + "seen p50 %d / p99 %d / max %d ms%n", n, seen.size(), result.early(), result.forwardedP50(),
                    result.forwardedP99(), result.forwardedMax(), result.visibleP50(), result.visibleP99(), result.visibleMax());
            return result;
        } finally {
            BenchCluster.deleteQuietly(dataDir);
        }
    }

    private static void write(BenchCluster cluster, Map<String, Object> serde, String topic, String tier, int n, Instant firstDue,
                              long spreadMs) {
        AgentResult envelope = AgentResult.newBuilder().setResultId("r").setAgentId("bench-agent").setTaskId("t")
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(ErrorCode.LLM_TIMEOUT.value()).build()).build())
                .build();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Map<String, Object> config = new HashMap<>(cluster.clientConfig());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<String, RetryRequest> producer = new KafkaProducer<>(config, new StringSerializer(),
                AvroSerde.specific(RetryRequest.class).configured(serde, false).serializer())) {
            for (int i = 0; i < n; i++) {
                Instant due = firstDue.plusMillis(spreadMs * i / n);
                RetryRequest retry = RetryRequest.newBuilder().setTaskId("task-" + i).setResultId("r-" + i)
                        .setAgentId("bench-agent").setNextAttempt(1).setErrorCode(ErrorCode.LLM_TIMEOUT.value()).setDelayMs(0)
                        .setDelayReason("benchmark").setTier(tier).setFailedAt(firstDue.toEpochMilli()).setDueAt(due.toEpochMilli())
                        .setReason("benchmark").setAgentResult(envelope).build();
                producer.send(new ProducerRecord<>(topic, retry.getTaskId(), retry), (metadata, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("could not write the retries: " + failed.get(), failed.get());
        }
    }

    /** Waits until the service has consumed (committed) the whole delay topic, or until the first retry is due. */
    private static boolean awaitConsumed(BenchCluster cluster, String applicationId, String topic, Instant firstDue)
            throws Exception {
        try (Admin admin = Admin.create(cluster.clientConfig())) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                    .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
            while (Instant.now().isBefore(firstDue)) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(applicationId)
                        .partitionsToOffsetAndMetadata().get();
                if (ends.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                        && committed.get(e.getKey()).offset() >= e.getValue())) {
                    return true;
                }
                Thread.sleep(200);
            }
            return false;
        }
    }

    /** The size on disk of the scheduler's RocksDB stores (every task's). */
    static long storeBytes(Path dataDir) throws IOException {
        Path streams = dataDir.resolve("streams");
        if (!Files.exists(streams)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(streams)) {
            return files.filter(p -> p.toString().contains("/rocksdb/" + RetryScheduler.PENDING_STORE + "/"))
                    .filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return 0;
    }
}
