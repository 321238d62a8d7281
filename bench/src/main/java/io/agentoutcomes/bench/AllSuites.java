package io.agentoutcomes.bench;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Every suite, one after the other, on one broker and registry. With {@code --quick} (what CI runs) it takes a
 * minute or two and shows that the harness works end to end: every suite's records arrive, no retry is early; it
 * asserts nothing about speed.
 */
@Command(name = "all", description = "Every suite in turn (with --quick: tiny sizes, what CI runs).", mixinStandardHelpOptions = true)
final class AllSuites implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Override
    public Integer call() throws Exception {
        long start = System.nanoTime();
        JmhSuite jmh = new JmhSuite();
        jmh.quick = common.quick;
        jmh.run(System.out);
        try (BenchCluster cluster = common.startCluster()) {
            ThroughputSuite throughput = new ThroughputSuite();
            if (common.quick) {
                throughput.inputs = List.of("avro", "json-vat");
                // the per-stage table and the skeleton's floor, with one budget declared so its stage is in the table
                throughput.stageCosts = true;
                throughput.settings.put("budget.bench.dimension", "agent");
                throughput.settings.put("budget.bench.limit.usd", "1000000");
            }
            throughput.runOn(cluster, common, System.out);

            List<SchedulerSuite.Result> retries = new SchedulerSuite().runOn(cluster, common, System.out);
            if (retries.stream().anyMatch(r -> r.early() > 0)) {
                throw new IllegalStateException("a retry was forwarded before it was due");
            }

            new LatencySuite().runOn(cluster, common, System.out);
        }
        System.out.printf("== all suites done in %.0f s%n", (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
