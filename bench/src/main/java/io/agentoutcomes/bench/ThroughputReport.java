package io.agentoutcomes.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the throughput suite measures, round by round, and how it prints it. */
final class ThroughputReport {
    private ThroughputReport() {
    }

    /**
     * One application's figures of one round: its rate; the process's CPU time (all threads, broker included) and
     * where it went; what the application wrote (records, bytes, transactions and the partitions each spanned); how
     * long its stream threads were blocked in the producer's flush and transaction calls; the producer's retries.
     */
    record Round(long records, double recordsPerSecond, double startupSeconds, double cpuSeconds,
                 double streamThreadCpuSeconds, double seconds, long peakHeap, Map<String, Long> cpuByGroup,
                 AppUnderTest.WriteProfile writes, long transactions, double commitBlockedSeconds, long producerRetries) {
        double cpuMicrosPerRecord() {
            return cpuSeconds * 1e6 / records;
        }

        double groupMicrosPerRecord(String group) {
            return cpuByGroup.getOrDefault(group, 0L) / 1e3 / records;
        }
    }

    /** What one variant measured: the plain passthrough, the pipeline, the matched passthrough (may be empty). */
    record Result(String variant, List<Round> passthrough, List<Round> pipeline, List<Round> matched) {
        List<Double> ratios() {
            return Measures.ratios(pipeline.stream().map(Round::recordsPerSecond).toList(),
                    passthrough.stream().map(Round::recordsPerSecond).toList());
        }

        List<Double> matchedRatios() {
            return Measures.ratios(pipeline.stream().map(Round::recordsPerSecond).toList(),
                    matched.stream().map(Round::recordsPerSecond).toList());
        }
    }

    /** The groups of threads CPU time is reported by, in the order printed. */
    static final String STREAM_THREADS = "stream threads";
    static final String PRODUCER_IO = "producer I/O";
    static final String APP_OTHER = "app, other";
    static final String BROKER = "broker, registry";
    static final String HARNESS = "harness";
    static final List<String> CPU_GROUPS = List.of(STREAM_THREADS, PRODUCER_IO, APP_OTHER, BROKER, CpuBreakdown.JIT,
            CpuBreakdown.GC, CpuBreakdown.ROCKSDB, HARNESS, CpuBreakdown.JVM, CpuBreakdown.OTHER);

    /** One round's line: the rates, and the passthrough's, pipeline's and matched passthrough's (may be null) costs. */
    static void printRound(PrintStream out, String label, int round, Round p, Round q, Round m) {
        out.printf(Locale.ROOT, "%s | %s | passthrough %,8.0f rec/s | pipeline %,8.0f rec/s | ratio %.2f%s"
                        + " | pipeline: %.1f s, CPU %.1f s (stream threads %.1f s), peak heap %s, startup %.1f s%n",
                label, round <= 0 ? "warm-up" : "round " + round, p.recordsPerSecond(), q.recordsPerSecond(),
                q.recordsPerSecond() / p.recordsPerSecond(),
                m == null ? "" : String.format(Locale.ROOT, " | matched %,8.0f rec/s (pipeline/matched %.2f)",
                        m.recordsPerSecond(), q.recordsPerSecond() / m.recordsPerSecond()),
                q.seconds(), q.cpuSeconds(), q.streamThreadCpuSeconds(), Measures.mib(q.peakHeap()), q.startupSeconds());
        out.println("    CPU µs/record  passthrough: " + cpuLine(p) + "\n                   pipeline:    " + cpuLine(q)
                + (m == null ? "" : "\n                   matched:     " + cpuLine(m)));
        out.println("    writes/input   passthrough: " + writesLine(p) + "\n                   pipeline:    " + writesLine(q)
                + (m == null ? "" : "\n                   matched:     " + writesLine(m)));
    }

    private static String cpuLine(Round r) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%.1f =", r.cpuMicrosPerRecord()));
        for (String group : CPU_GROUPS) {
            double micros = r.groupMicrosPerRecord(group);
            if (micros >= 0.05) {
                line.append(String.format(Locale.ROOT, " %s %.1f,", group, micros));
            }
        }
        return line.substring(0, line.length() - 1);
    }

    private static String writesLine(Round r) {
        return String.format(Locale.ROOT, "%.2f records, %.0f bytes, %.1f partitions/transaction, %,d transactions (%.0f/s), "
                        + "stream threads blocked in flush/commit %.0f %% of the round, %d producer retries",
                r.writes().recordsPerInput(), r.writes().bytesPerInput(), r.writes().partitionsPerTransaction(),
                r.transactions(), r.transactions() / r.seconds(), 100 * r.commitBlockedSeconds() / r.seconds(), r.producerRetries());
    }

    static void printSummary(List<Result> results, PrintStream out) {
        out.println();
        out.println("| variant | passthrough rec/s | pipeline rec/s | ratio | matched passthrough rec/s | pipeline / matched "
                + "| pipeline CPU µs/record | pipeline stream-thread busy | pipeline peak heap |");
        out.println("|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            List<Double> busy = r.pipeline().stream().map(q -> q.streamThreadCpuSeconds() / q.seconds()).toList();
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", r.variant(),
                    Measures.medianRange(rates(r.passthrough()), "%,.0f"),
                    Measures.medianRange(rates(r.pipeline()), "%,.0f"),
                    Measures.medianRange(r.ratios(), "%.2f"),
                    Measures.medianRange(rates(r.matched()), "%,.0f"),
                    Measures.medianRange(r.matchedRatios(), "%.2f"),
                    Measures.medianRange(r.pipeline().stream().map(Round::cpuMicrosPerRecord).toList(), "%.0f"),
                    Measures.medianRange(busy, "%.2f"),
                    Measures.medianRange(r.pipeline().stream().map(q -> q.peakHeap() / 1048576.0).toList(), "%.0f") + " MiB");
        }
        out.println("(median (min–max) over the measured rounds; ratio per round = pipeline / passthrough of that round; "
                + "stream-thread busy = the stream threads' CPU time / the round's time, summed over threads)");
        out.println();
        out.println("Process CPU µs per input record, by thread group (median of the measured rounds; the broker is in this JVM):");
        out.println();
        out.println("| variant | application | total | " + String.join(" | ", CPU_GROUPS) + " |");
        out.println("|---|---|---|" + "---|".repeat(CPU_GROUPS.size()));
        for (Result r : results) {
            for (Map.Entry<String, List<Round>> app : List.of(Map.entry("passthrough", r.passthrough()),
                    Map.entry("pipeline", r.pipeline()), Map.entry("matched passthrough", r.matched()))) {
                if (app.getValue().isEmpty()) {
                    continue;
                }
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %s | %.1f |", r.variant(), app.getKey(),
                        Measures.median(app.getValue().stream().map(Round::cpuMicrosPerRecord).toList())));
                for (String group : CPU_GROUPS) {
                    row.append(String.format(Locale.ROOT, " %.1f |",
                            Measures.median(app.getValue().stream().map(q -> q.groupMicrosPerRecord(group)).toList())));
                }
                out.println(row);
            }
        }
        out.println();
        out.println("What each application wrote to the broker per input record, and its transactions (median of the measured rounds):");
        out.println();
        out.println("| variant | application | records | bytes | partitions / transaction | transactions / s "
                + "| stream threads blocked in flush + commit | producer retries |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            for (Map.Entry<String, List<Round>> app : List.of(Map.entry("passthrough", r.passthrough()),
                    Map.entry("pipeline", r.pipeline()), Map.entry("matched passthrough", r.matched()))) {
                List<Round> rs = app.getValue();
                if (rs.isEmpty()) {
                    continue;
                }
                out.printf(Locale.ROOT, "| %s | %s | %.2f | %.0f | %.1f | %.1f | %.0f %% | %.0f |%n", r.variant(), app.getKey(),
                        Measures.median(rs.stream().map(q -> q.writes().recordsPerInput()).toList()),
                        Measures.median(rs.stream().map(q -> q.writes().bytesPerInput()).toList()),
                        Measures.median(rs.stream().map(q -> q.writes().partitionsPerTransaction()).toList()),
                        Measures.median(rs.stream().map(q -> q.transactions() / q.seconds()).toList()),
                        Measures.median(rs.stream().map(q -> 100 * q.commitBlockedSeconds() / q.seconds()).toList()),
                        Measures.median(rs.stream().map(q -> (double) q.producerRetries()).toList()));
            }
        }
    }

    private static List<Double> rates(List<Round> rounds) {
        return rounds.stream().map(Round::recordsPerSecond).toList();
    }

}
