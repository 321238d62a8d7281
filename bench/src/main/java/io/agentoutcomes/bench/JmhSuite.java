package io.agentoutcomes.bench;

import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Per-record cost with JMH (average time, with JMH's GC profiler for allocations): serde encode/decode, JSON
 * normalization per dialect, classification with policy and backoff, analytics accumulation. No broker.
 */
@Command(name = "jmh", description = "Per-record cost: ns/op and bytes allocated/op (JMH, -prof gc).",
        mixinStandardHelpOptions = true)
final class JmhSuite implements Callable<Integer> {
    @Option(names = "--quick", description = "One short iteration each, to show the harness works; figures mean nothing.")
    boolean quick;

    @Option(names = "--include", description = "Regular expression of the benchmarks to run (default: all of them).")
    String include = "io\\.agentoutcomes\\.bench\\..*Benchmark";

    @Option(names = "--forks", description = "JMH forks (default: ${DEFAULT-VALUE}).")
    int forks = 2;

    @Option(names = "--warmup-iterations", description = "Default: ${DEFAULT-VALUE}.")
    int warmups = 3;

    @Option(names = "--iterations", description = "Default: ${DEFAULT-VALUE}.")
    int iterations = 5;

    @Option(names = "--iteration-ms", description = "Length of each iteration (default: ${DEFAULT-VALUE}).")
    long iterationMs = 1000;

    @Option(names = "--verbose", description = "Show JMH's own output.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        run(System.out);
        return 0;
    }

    void run(PrintStream out) throws Exception {
        if (quick) {
            forks = 0;
            warmups = 1;
            iterations = 1;
            iterationMs = Math.min(iterationMs, 200);
        }
        out.printf(Locale.ROOT, "== jmh: %d fork(s) (0: in this JVM), %d warm-up and %d measured iterations of %d ms, average time, -prof gc%n",
                forks, warmups, iterations, iterationMs);
        ChainedOptionsBuilder options = new OptionsBuilder().include(include)
                .mode(Mode.AverageTime).timeUnit(TimeUnit.NANOSECONDS)
                .forks(forks).warmupIterations(warmups).measurementIterations(iterations)
                .warmupTime(TimeValue.milliseconds(iterationMs)).measurementTime(TimeValue.milliseconds(iterationMs))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT);
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.isEmpty()) {
            throw new IllegalStateException("no benchmark matched " + include);
        }
        out.println("| benchmark | ns/op | ± (99.9%) | bytes allocated/op |");
        out.println("|---|---|---|---|");
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark().replace("io.agentoutcomes.bench.", "");
            StringBuilder params = new StringBuilder();
            for (String key : result.getParams().getParamsKeys()) {
                params.append(params.length() == 0 ? " (" : ", ").append(result.getParams().getParam(key));
            }
            if (params.length() > 0) {
                params.append(')');
            }
            Result<?> primary = result.getPrimaryResult();
            Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
            if (alloc == null) {
                alloc = result.getSecondaryResults().get("·gc.alloc.rate.norm");
            }
            out.printf(Locale.ROOT, "| %s%s | %,.0f | %s | %s |%n", name, params, primary.getScore(),
                    Double.isNaN(primary.getScoreError()) ? "-" : String.format(Locale.ROOT, "%,.0f", primary.getScoreError()),
                    alloc == null ? "-" : String.format(Locale.ROOT, "%,.0f", alloc.getScore()));
        }
    }
}
