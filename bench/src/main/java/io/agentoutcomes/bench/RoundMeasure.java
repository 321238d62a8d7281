package io.agentoutcomes.bench;

import static io.agentoutcomes.bench.ThroughputReport.APP_OTHER;
import static io.agentoutcomes.bench.ThroughputReport.BROKER;
import static io.agentoutcomes.bench.ThroughputReport.HARNESS;
import static io.agentoutcomes.bench.ThroughputReport.PRODUCER_IO;
import static io.agentoutcomes.bench.ThroughputReport.STREAM_THREADS;

import io.agentoutcomes.bench.ThroughputReport.Round;
import java.time.Duration;
import java.util.function.Function;

/** One application's round of the throughput suite: started, timed to its last output, measured, closed. */
final class RoundMeasure {
    private RoundMeasure() {
    }

    /** The producer's cumulative times of the calls a stream thread blocks in at a commit, in nanoseconds. */
    private static double commitBlockedNanos(AppUnderTest app) {
        return app.metric("producer-metrics", "flush-time-ns-total") + app.metric("producer-metrics", "txn-commit-time-ns-total")
                + app.metric("producer-metrics", "txn-send-offsets-time-ns-total")
                + app.metric("producer-metrics", "txn-begin-time-ns-total");
    }

    /** Runs the application {@code starter} starts until {@code records} new records are on {@code outputTopic}. */
    static Round measure(BenchCluster cluster, long records, String outputTopic, String applicationId,
                         AppUnderTest.Starter starter) throws Exception {
        WriteCounting.Writes writes = WriteCounting.of(applicationId);
        Function<String, String> groups = name -> name.startsWith(applicationId + "-") && name.matches(".*-StreamThread-\\d+$")
                ? STREAM_THREADS
                : name.startsWith("kafka-producer-network-thread | " + applicationId) ? PRODUCER_IO
                : name.contains(applicationId) || name.startsWith("HTTP-") || name.startsWith("agent-outcomes-") ? APP_OTHER
                : name.equals("main") ? HARNESS : BROKER;
        try (OutputCounter counter = new OutputCounter(cluster.bootstrapServers(), outputTopic)) {
            long begin = System.nanoTime();
            try (AppUnderTest app = starter.start()) {
                long running = app.awaitProcessing(Duration.ofMinutes(2));
                Measures.resetPeakHeap();
                CpuBreakdown.Snapshot cpuBefore = CpuBreakdown.take(groups);
                long recordsBefore = writes.records.sum();
                long bytesBefore = writes.bytes.sum();
                long txnsBefore = writes.transactions.sum();
                long txnPartitionsBefore = writes.partitionsInTransactions.sum();
                double blockedBefore = commitBlockedNanos(app);
                double retriesBefore = app.metric("producer-metrics", "record-retry-total");
                long end = counter.await(records, Duration.ofSeconds(120 + records / 500), null);
                CpuBreakdown.Snapshot cpuAfter = CpuBreakdown.take(groups);
                long streamCpu = Measures.threadCpuNanos(app::isStreamThread);
                double seconds = (end - running) / 1e9;
                long txns = writes.transactions.sum() - txnsBefore;
                AppUnderTest.WriteProfile profile = new AppUnderTest.WriteProfile(
                        (double) (writes.records.sum() - recordsBefore) / records,
                        (double) (writes.bytes.sum() - bytesBefore) / records,
                        txns == 0 ? 0 : (double) (writes.partitionsInTransactions.sum() - txnPartitionsBefore) / txns);
                return new Round(records, records / seconds, (running - begin) / 1e9,
                        (cpuAfter.processNanos() - cpuBefore.processNanos()) / 1e9, streamCpu / 1e9, seconds,
                        Measures.peakHeapBytes(), CpuBreakdown.between(cpuBefore, cpuAfter), profile, txns,
                        (commitBlockedNanos(app) - blockedBefore) / 1e9,
                        (long) (app.metric("producer-metrics", "record-retry-total") - retriesBefore));
            }
        }
    }

}
