package io.agentoutcomes.bench;

import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.topology.Topics;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Throughput of the full pipeline against a byte-array passthrough, side by side: the same pre-loaded records (one
 * topic, read from its start by each application), both exactly_once_v2, on one broker, alternating round by round
 * in one JVM; a warm-up round of each is run first and discarded. A round's time is from the moment the application
 * is RUNNING (group joined, tasks assigned: processing of the pre-loaded input starts) to the moment a read_committed
 * consumer has seen the last of its outputs (one per input record: {@code outcomes-classified} for the pipeline).
 */
@Command(name = "throughput", description = "Pipeline vs byte-array passthrough records/s, side by side.",
        mixinStandardHelpOptions = true)
final class ThroughputSuite extends ClusterSuite<List<ThroughputSuite.Result>> {
    @Option(names = "--inputs", split = ",", description = "Input formats: avro, json-vat, json-flatagents, json-review (default: ${DEFAULT-VALUE}).")
    List<String> inputs = new ArrayList<>(List.of("avro"));

    @Option(names = "--analytics", split = ",", description = "Analytics on and/or off (default: ${DEFAULT-VALUE}).")
    List<String> analytics = new ArrayList<>(List.of("on"));

    @Option(names = "--threads", split = ",", description = "num.stream.threads of both applications (default: ${DEFAULT-VALUE}).")
    List<Integer> threads = new ArrayList<>(List.of(1));

    @Option(names = "--tasks", split = ",", description = "Distinct task ids in the records (default: ${DEFAULT-VALUE}).")
    List<Long> tasks = new ArrayList<>(List.of(1000L));

    @Option(names = "--records", description = "Records per round (default: ${DEFAULT-VALUE}).")
    long records = 200_000;

    @Option(names = "--rounds", description = "Measured rounds of each application, after one warm-up round (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Option(names = "--warmup-rounds", description = "Rounds of each application run first and not counted (default: ${DEFAULT-VALUE}).")
    int warmupRounds = 1;

    @Option(names = "--partitions", description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--set", description = "A further setting for both applications, key=value (Kafka Streams or client settings; "
            + "service settings such as policy.* reach the pipeline only).")
    Map<String, String> settings = new HashMap<>();

    @Option(names = "--profile", arity = "0..1", fallbackValue = "throughput.jfr",
            description = "Record a JFR profile of the measured rounds into this file (default name: ${FALLBACK-VALUE}) and print "
                    + "the top frames of the pipeline's stream threads.")
    Path profile;

    @Option(names = "--top", description = "How many frames the profile summary lists (default: ${DEFAULT-VALUE}).")
    int top = 25;

    /** One application's figures of one round. */
    record Round(double recordsPerSecond, double startupSeconds, double cpuSeconds, double streamThreadCpuSeconds,
                 double seconds, long peakHeap) {
    }

    /** What one variant measured. */
    record Result(String variant, List<Round> passthrough, List<Round> pipeline) {
        List<Double> ratios() {
            return Measures.ratios(pipeline.stream().map(Round::recordsPerSecond).toList(),
                    passthrough.stream().map(Round::recordsPerSecond).toList());
        }
    }

    @Override
    void applyQuick() {
        if (common.quick) {
            records = Math.min(records, 1_000);
            rounds = 1;
            warmupRounds = 0;
        }
    }

    @Override
    List<Result> run(BenchCluster cluster, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "== throughput: %,d records per round, %d measured rounds after %d warm-up round(s), %d partitions, %s%n",
                records, rounds, warmupRounds, partitions, cluster.describe());
        List<Result> results = new ArrayList<>();
        JfrProfile jfr = null;
        int variantNo = 0;
        try {
            for (String inputLabel : inputs) {
                Workload.Input input = Workload.Input.of(inputLabel);
                for (long taskCount : tasks) {
                    String prefix = "bench-" + System.currentTimeMillis() % 100_000 + "-" + (++variantNo) + ".";
                    String inputTopic = prefix + (input.json() ? Topics.AGENT_RESULTS_JSON : Topics.AGENT_RESULTS);
                    String passthroughOut = prefix + "passthrough-out";
                    TopicProvisioner.ensure(cluster.clientConfig(), List.of(
                            new TopicProvisioner.TopicSpec(inputTopic, partitions, Topics.Cleanup.DELETE),
                            new TopicProvisioner.TopicSpec(passthroughOut, partitions, Topics.Cleanup.DELETE),
                            // the pipeline's output: created here so that the counter can be opened before the service starts
                            new TopicProvisioner.TopicSpec(prefix + Topics.OUTCOMES_CLASSIFIED, partitions, Topics.Cleanup.DELETE)),
                            (short) -1);
                    double produced = Workload.produce(cluster.bootstrapServers(), cluster.registryUrl(), inputTopic, input,
                            records, taskCount);
                    out.printf(Locale.ROOT, "pre-loaded %,d %s records (%,d distinct tasks) into %s in %.1f s%n", records, input,
                            taskCount, inputTopic, produced);
                    for (String analyticsSetting : analytics) {
                        boolean analyticsOn = onOff(analyticsSetting);
                        for (int threadCount : threads) {
                            String variant = String.format(Locale.ROOT, "%s, analytics %s, %d thread%s, %,d tasks", input,
                                    analyticsOn ? "on" : "off", threadCount, threadCount == 1 ? "" : "s", taskCount);
                            List<Round> pass = new ArrayList<>();
                            List<Round> pipe = new ArrayList<>();
                            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                                String tag = "v" + variantNo + (analyticsOn ? "a" : "n") + threadCount + "-r" + (round + warmupRounds);
                                String roundPrefix = pipelinePrefix(prefix, input, tag);
                                AppUnderTest.createPipelineTopics(cluster, prefix + "pipeline-" + tag, roundPrefix, partitions,
                                        pipelineSettings(threadCount, analyticsOn));
                                if (!roundPrefix.equals(prefix)) {
                                    // JSON in: the pipeline writes the canonical records to its own agent-results, which a
                                    // later round must not read again; so each round has its own topics and its own copy
                                    // of the input, loaded before it starts (not timed).
                                    Workload.produce(cluster.bootstrapServers(), cluster.registryUrl(),
                                            roundPrefix + Topics.AGENT_RESULTS_JSON, input, records, taskCount);
                                }
                            }
                            for (int round = 1 - warmupRounds; round <= rounds; round++) {
                                if (round == 1 && profile != null && jfr == null) {
                                    jfr = JfrProfile.start(profile);
                                }
                                String tag = "v" + variantNo + (analyticsOn ? "a" : "n") + threadCount + "-r" + (round + warmupRounds);
                                Map<String, String> both = new HashMap<>(settings);
                                both.put("num.stream.threads", String.valueOf(threadCount));
                                Map<String, String> pipelineSettings = pipelineSettings(threadCount, analyticsOn);
                                Round p = measure(cluster, passthroughOut, () -> AppUnderTest.passthrough(cluster,
                                        prefix + "passthrough-" + tag, inputTopic, passthroughOut,
                                        cluster.dir().resolve(prefix + "passthrough-" + tag), both));
                                String roundPrefix = pipelinePrefix(prefix, input, tag);
                                Round q = measure(cluster, roundPrefix + Topics.OUTCOMES_CLASSIFIED, () -> AppUnderTest.pipeline(cluster,
                                        prefix + "pipeline-" + tag, roundPrefix, partitions,
                                        cluster.dir().resolve(prefix + "pipeline-" + tag), pipelineSettings));
                                out.printf(Locale.ROOT, "%s | %s | passthrough %,8.0f rec/s | pipeline %,8.0f rec/s | ratio %.2f"
                                                + " | pipeline: %.1f s, CPU %.1f s (stream threads %.1f s), peak heap %s, startup %.1f s%n",
                                        variant, round <= 0 ? "warm-up" : "round " + round, p.recordsPerSecond(),
                                        q.recordsPerSecond(), q.recordsPerSecond() / p.recordsPerSecond(), q.seconds(),
                                        q.cpuSeconds(), q.streamThreadCpuSeconds(), Measures.mib(q.peakHeap()), q.startupSeconds());
                                if (round > 0) {
                                    pass.add(p);
                                    pipe.add(q);
                                }
                            }
                            results.add(new Result(variant, pass, pipe));
                        }
                    }
                }
            }
        } finally {
            if (jfr != null) {
                jfr.close();
            }
        }
        printSummary(results, out);
        if (jfr != null) {
            out.println();
            out.println("JFR profile written to " + jfr.file().toAbsolutePath());
            Predicate<String> pipelineStreamThreads = name -> name.contains("pipeline-") && name.matches(".*-StreamThread-\\d+$");
            JfrProfile.print(JfrProfile.summarize(jfr.file(), pipelineStreamThreads), "the pipeline's stream threads", top, out);
        }
        return results;
    }

    private Map<String, String> pipelineSettings(int threadCount, boolean analyticsOn) {
        Map<String, String> pipeline = new HashMap<>(settings);
        pipeline.put("num.stream.threads", String.valueOf(threadCount));
        pipeline.put("analytics.enabled", String.valueOf(analyticsOn));
        return pipeline;
    }

    private Round measure(BenchCluster cluster, String outputTopic, AppUnderTest.Starter starter) throws Exception {
        try (OutputCounter counter = new OutputCounter(cluster.bootstrapServers(), outputTopic)) {
            long begin = System.nanoTime();
            try (AppUnderTest app = starter.start()) {
                app.awaitRunning(Duration.ofMinutes(2));
                long running = System.nanoTime();
                Measures.resetPeakHeap();
                long cpu = Measures.processCpuNanos();
                long end = counter.await(records, Duration.ofSeconds(120 + records / 500), null);
                long cpuUsed = Measures.processCpuNanos() - cpu;
                long streamCpu = Measures.threadCpuNanos(app::isStreamThread);
                double seconds = (end - running) / 1e9;
                return new Round(records / seconds, (running - begin) / 1e9, cpuUsed / 1e9, streamCpu / 1e9, seconds,
                        Measures.peakHeapBytes());
            }
        }
    }

    static void printSummary(List<Result> results, PrintStream out) {
        out.println();
        out.println("| variant | passthrough rec/s | pipeline rec/s | ratio | pipeline CPU µs/record | pipeline stream-thread busy | pipeline peak heap |");
        out.println("|---|---|---|---|---|---|---|");
        for (Result r : results) {
            List<Double> cpuPerRecord = r.pipeline().stream().map(q -> q.cpuSeconds() * 1e6 / (q.recordsPerSecond() * q.seconds()))
                    .toList();
            List<Double> busy = r.pipeline().stream().map(q -> q.streamThreadCpuSeconds() / q.seconds()).toList();
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", r.variant(),
                    Measures.medianRange(r.passthrough().stream().map(Round::recordsPerSecond).toList(), "%,.0f"),
                    Measures.medianRange(r.pipeline().stream().map(Round::recordsPerSecond).toList(), "%,.0f"),
                    Measures.medianRange(r.ratios(), "%.2f"),
                    Measures.medianRange(cpuPerRecord, "%.0f"),
                    Measures.medianRange(busy, "%.2f"),
                    Measures.medianRange(r.pipeline().stream().map(q -> q.peakHeap() / 1048576.0).toList(), "%.0f") + " MiB");
        }
        out.println("(median (min–max) over the measured rounds; ratio per round = pipeline / passthrough of that round; "
                + "stream-thread busy = the stream threads' CPU time / the round's time, summed over threads)");
    }

    static boolean onOff(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException("--analytics takes on or off, not '" + value + "'");
        };
    }

    /**
     * The topic prefix of a pipeline round: the variant's own for Avro in (every round reads the one pre-loaded input
     * and writes nothing another round reads), one per round for JSON in (the pipeline writes the canonical records
     * to its {@code agent-results}, which the next round's pipeline would read again).
     */
    private static String pipelinePrefix(String prefix, Workload.Input input, String tag) {
        return input.json() ? prefix + tag + "." : prefix;
    }
}
