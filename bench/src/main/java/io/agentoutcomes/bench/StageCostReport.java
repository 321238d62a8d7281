package io.agentoutcomes.bench;

import io.agentoutcomes.bench.ThroughputReport.Round;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The tables of {@code throughput --stage-costs}: the four applications side by side, and µs per record per stage. */
final class StageCostReport {
    private StageCostReport() {
    }

    /** One variant's measured rounds: the plain applications and what {@link StageCostRounds} measured. */
    record Variant(String label, int threads, List<Round> passthrough, List<Round> pipeline,
                   List<StageCostRounds.Measured> staged) {
        List<Round> timed() {
            return staged.stream().map(StageCostRounds.Measured::timed).toList();
        }

        List<Round> skeleton() {
            return staged.stream().map(StageCostRounds.Measured::skeleton).toList();
        }
    }

    /** A round's line. */
    static void printRound(PrintStream out, String label, int round, StageCostRounds.Measured m) {
        out.printf(Locale.ROOT, "%s | %s | pipeline, stages timed %,8.0f rec/s, stream threads %.1f µs CPU/record"
                        + " | skeleton %,8.0f rec/s, stream threads %.1f µs CPU/record%n", label,
                round <= 0 ? "warm-up" : "round " + round, m.timed().recordsPerSecond(), streamCpu(m.timed()),
                m.skeleton().recordsPerSecond(), streamCpu(m.skeleton()));
    }

    static void print(List<Variant> variants, PrintStream out) {
        for (Variant v : variants) {
            if (v.staged().isEmpty()) {
                continue;
            }
            out.println();
            out.println("Stage costs, " + v.label() + " (median of the measured rounds):");
            out.println();
            out.println("| | passthrough | skeleton | pipeline | pipeline, stages timed |");
            out.println("|---|---|---|---|---|");
            row(out, "records/s", "%,.0f", v, Round::recordsPerSecond);
            row(out, "stream-thread CPU µs / record", "%.1f", v, StageCostReport::streamCpu);
            row(out, "records written / input", "%.2f", v, r -> r.writes().recordsPerInput());
            out.printf(Locale.ROOT, "(the skeleton: the pipeline's sub-topologies, nodes and sinks forwarding bytes as many times "
                    + "as the timed pipeline forwarded records, no state; the timing's own cost: %+.1f µs of stream-thread CPU "
                    + "per record, timed against plain)%n", median(v.timed(), StageCostReport::streamCpu)
                    - median(v.pipeline(), StageCostReport::streamCpu));
            out.println();
            out.println("| stage | µs / input record | share of the stages | of which punctuations | node calls / input | nodes |");
            out.println("|---|---|---|---|---|---|");
            List<StageCosts.StageFigures> first = v.staged().get(0).stages();
            List<Double> medians = new ArrayList<>();
            for (int i = 0; i < first.size(); i++) {
                int at = i;
                medians.add(Measures.median(v.staged().stream().map(m -> m.stages().get(at).micros()).toList()));
            }
            double total = medians.stream().mapToDouble(Double::doubleValue).sum();
            for (int i = 0; i < first.size(); i++) {
                int at = i;
                List<StageCosts.StageFigures> each = v.staged().stream().map(m -> m.stages().get(at)).toList();
                out.printf(Locale.ROOT, "| %s | %.2f | %.0f %% | %.2f | %.1f | %s |%n", first.get(i).stage(), medians.get(i),
                        total == 0 ? 0 : 100 * medians.get(i) / total,
                        Measures.median(each.stream().map(StageCosts.StageFigures::punctuationMicros).toList()),
                        Measures.median(each.stream().map(StageCosts.StageFigures::callsPerRecord).toList()),
                        first.get(i).nodes().isEmpty() ? "(none)" : String.join(", ", first.get(i).nodes()));
            }
            double wall = median(v.timed(), r -> r.seconds() * v.threads() * 1e6 / r.records());
            double blocked = median(v.timed(), r -> r.commitBlockedSeconds() * 1e6 / r.records());
            out.printf(Locale.ROOT, "| **all stages** | **%.2f** | 100 %% | | | |%n", total);
            out.printf(Locale.ROOT, "| stream threads blocked in the producer's flush and transaction calls | %.2f | | | | |%n", blocked);
            out.printf(Locale.ROOT, "| the rest: poll, the sources' deserialization, store flushes and changelogs at commit, "
                    + "Kafka Streams' own work, idle | %.2f | | | | |%n", wall - total - blocked);
            out.printf(Locale.ROOT, "| stream threads' wall time (%d × the round's time) | %.2f | | | | |%n", v.threads(), wall);
            out.println("(wall µs per input record in the timed pipeline's stream threads, so on a busy machine also the time a "
                    + "thread waited for a core; a node's time excludes the wrapped processors it forwards to and includes the "
                    + "sinks it writes to: serialization and send)");
        }
    }

    private static void row(PrintStream out, String name, String format, Variant v, ToDoubleFunction<Round> value) {
        List<String> cells = new ArrayList<>();
        for (List<Round> rounds : List.of(v.passthrough(), v.skeleton(), v.pipeline(), v.timed())) {
            cells.add(rounds.isEmpty() ? "-" : String.format(Locale.ROOT, format, median(rounds, value)));
        }
        out.println("| " + name + " | " + String.join(" | ", cells) + " |");
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> value) {
        return Measures.median(rounds.stream().map(value::applyAsDouble).toList());
    }

    static double streamCpu(Round r) {
        return r.streamThreadCpuSeconds() * 1e6 / r.records();
    }
}
