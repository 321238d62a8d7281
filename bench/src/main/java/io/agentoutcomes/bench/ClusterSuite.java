package io.agentoutcomes.bench;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * A suite that measures against a broker and registry: run as its own command it starts them ({@link CommonOptions}),
 * under {@code all} it shares that command's.
 *
 * @param <R> what one run measured
 */
abstract class ClusterSuite<R> implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    /** With {@code --quick}: tiny sizes, enough to show the suite works end to end. */
    abstract void applyQuick();

    abstract R run(BenchCluster cluster, PrintStream out) throws Exception;

    @Override
    public final Integer call() throws Exception {
        applyQuick();
        try (BenchCluster cluster = common.startCluster()) {
            run(cluster, System.out);
        }
        return 0;
    }

    /** Runs on another command's cluster, with its common options. */
    final R runOn(BenchCluster cluster, CommonOptions options, PrintStream out) throws Exception {
        this.common = options;
        applyQuick();
        return run(cluster, out);
    }
}
