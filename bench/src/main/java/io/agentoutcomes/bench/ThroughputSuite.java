package io.agentoutcomes.bench;

import io.agentoutcomes.app.StreamsProperties;
import io.agentoutcomes.app.config.AnalyticsConfig;
import io.agentoutcomes.app.config.MetricsConfig;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.bench.ThroughputReport.Result;
import io.agentoutcomes.bench.ThroughputReport.Round;
import io.agentoutcomes.topology.topic.Topics;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Throughput of the full pipeline against a byte-array passthrough, side by side: the same pre-loaded records (one
 * topic, read from its start by each application), both exactly_once_v2, on one broker, alternating round by round
 * in one JVM; a warm-up round of each is run first and discarded. A round's time is from the moment the application
 * processes (RUNNING, or its consumers fetched records before: with two stream threads one may process while the
 * other still joins) to the moment a read_committed
 * consumer has seen the last of its outputs (one per input record: {@code outcomes-classified} for the pipeline).
 */
@Command(name = "throughput", description = "Pipeline vs byte-array passthrough records/s, side by side.",
        mixinStandardHelpOptions = true)
final class ThroughputSuite extends ClusterSuite<List<ThroughputReport.Result>> {
    @Option(names = "--inputs", split = ",", description = "Input formats: avro, json-vat, json-flatagents, json-review, otlp-proto, otlp-json (default: ${DEFAULT-VALUE}).")
    List<String> inputs = new ArrayList<>(List.of("avro"));

    @Option(names = "--analytics", split = ",", description = "Analytics on and/or off (default: ${DEFAULT-VALUE}).")
    List<String> analytics = new ArrayList<>(List.of("on"));

    @Option(names = "--stage-timings", split = ",", description = "The service's per-node timings (metrics.stage.timings.enabled, "
            + "agent_outcomes_stage_process_seconds) on and/or off in the pipeline, one variant each (default: ${DEFAULT-VALUE}, the "
            + "service's default).")
    List<String> stageTimings = new ArrayList<>(List.of("off"));

    @Option(names = "--threads", split = ",", description = "num.stream.threads of both applications (default: ${DEFAULT-VALUE}, the "
            + "service's).")
    List<Integer> threads = new ArrayList<>(List.of(StreamsProperties.DEFAULT_STREAM_THREADS));

    @Option(names = "--tasks", split = ",", description = "Distinct task ids in the records (default: ${DEFAULT-VALUE}).")
    List<Long> tasks = new ArrayList<>(List.of(1000L));

    @Option(names = "--records", description = "Records per round (default: ${DEFAULT-VALUE}).")
    long records = 1_000_000;

    @Option(names = "--rounds", description = "Measured rounds of each application, after one warm-up round (default: ${DEFAULT-VALUE}).")
    int rounds = 3;

    @Option(names = "--warmup-rounds", description = "Rounds of each application run first and not counted (default: ${DEFAULT-VALUE}).")
    int warmupRounds = 1;

    @Option(names = "--partitions", description = "Partitions of every topic (default: ${DEFAULT-VALUE}).")
    int partitions = 4;

    @Option(names = "--set", description = "A further setting for both applications, key=value (Kafka Streams or client settings; "
            + "service settings such as policy.* reach the pipeline only).")
    Map<String, String> settings = new HashMap<>();

    @Option(names = "--guarantees", split = ",", description = "processing.guarantee of all applications: exactly_once_v2 and/or "
            + "at_least_once (default: ${DEFAULT-VALUE}).")
    List<String> guarantees = new ArrayList<>(List.of(StreamsConfig.EXACTLY_ONCE_V2));

    @Option(names = "--commit-intervals", split = ",", description = "commit.interval.ms of all applications, one variant each "
            + "(default: each application's own default).")
    List<Long> commitIntervals = new ArrayList<>();

    @Option(names = "--matched", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run a passthrough that writes as much per input as the pipeline (default: on).")
    boolean matched = true;

    @Option(names = "--profile", arity = "0..1", fallbackValue = "throughput.jfr",
            description = "Record a JFR profile of the measured rounds into this file (default name: ${FALLBACK-VALUE}) and print "
                    + "the top frames of the pipeline's stream threads.")
    Path profile;

    @Option(names = "--stage-costs", description = "Also run, each round, the pipeline with every processor timed (a table of "
            + "µs per input record for each stage) and a skeleton of its shape forwarding bytes (Kafka Streams' own floor); on in "
            + "all --quick.")
    boolean stageCosts;

    @Option(names = "--top", description = "How many frames the profile summary lists (default: ${DEFAULT-VALUE}).")
    int top = 25;

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
        staged.clear();
        JfrProfile jfr = null;
        int variantNo = 0;
        List<Long> intervals = commitIntervals.isEmpty() ? Collections.singletonList(null) : commitIntervals;
        try {
            for (String inputLabel : inputs) {
                Workload.Input input = Workload.Input.of(inputLabel);
                for (long taskCount : tasks) {
                    String prefix = "bench-" + System.currentTimeMillis() % 100_000 + "-" + (++variantNo) + ".";
                    if (stageCosts && input.otlp()) {
                        throw new IllegalArgumentException("--stage-costs measures avro and the JSON dialects, not " + input);
                    }
                    String inputTopic = input.topic(prefix);
                    String passthroughOut = prefix + "passthrough-out";
                    String matchedOut = prefix + "matched-out";
                    TopicProvisioner.ensure(cluster.clientConfig(), List.of(
                            new TopicProvisioner.TopicSpec(inputTopic, partitions, Topics.Cleanup.DELETE),
                            new TopicProvisioner.TopicSpec(passthroughOut, partitions, Topics.Cleanup.DELETE),
                            new TopicProvisioner.TopicSpec(matchedOut, partitions, Topics.Cleanup.DELETE),
                            // the pipeline's output: created here so that the counter can be opened before the service starts
                            new TopicProvisioner.TopicSpec(prefix + TopicNames.OUTCOMES_CLASSIFIED, partitions, Topics.Cleanup.DELETE)),
                            (short) -1);
                    double produced = Workload.produce(cluster.bootstrapServers(), cluster.registryUrl(), inputTopic, input,
                            records, taskCount);
                    out.printf(Locale.ROOT, "pre-loaded %,d %s records (%,d distinct tasks) into %s in %.1f s%n", records, input,
                            taskCount, inputTopic, produced);
                    for (String analyticsSetting : analytics) {
                        boolean analyticsOn = onOff("--analytics", analyticsSetting);
                        for (String timingSetting : stageTimings) {
                            boolean timingsOn = onOff("--stage-timings", timingSetting);
                            for (int threadCount : threads) {
                                for (String guarantee : guarantees) {
                                    for (Long interval : intervals) {
                                        Map<String, String> both = new HashMap<>(settings);
                                        both.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, String.valueOf(threadCount));
                                        both.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
                                        if (interval != null) {
                                            both.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, String.valueOf(interval));
                                        }
                                        both.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, WriteCounting.Supplier.class.getName());
                                        String variant = String.format(Locale.ROOT, "%s, analytics %s%s, %d thread%s, %,d tasks%s%s",
                                                input, analyticsOn ? "on" : "off", timingsOn ? ", stage timings on" : "", threadCount,
                                                threadCount == 1 ? "" : "s", taskCount,
                                                guarantee.equals(StreamsConfig.EXACTLY_ONCE_V2) ? "" : ", " + guarantee,
                                                interval == null ? "" : ", commit " + interval + " ms");
                                        String tagBase = "v" + variantNo + (analyticsOn ? "a" : "n") + (timingsOn ? "s" : "") + threadCount
                                                + (guarantee.equals(StreamsConfig.EXACTLY_ONCE_V2) ? "e" : "l") + (interval == null ? "" : "c" + interval);
                                        Variant v = new Variant(variant, tagBase, prefix, input, taskCount, inputTopic, passthroughOut,
                                                matchedOut, both, pipelineSettings(both, analyticsOn, timingsOn));
                                        if (profile != null && jfr == null && rounds > 0) {
                                            jfr = JfrProfile.start(profile);
                                        }
                                        results.add(runVariant(cluster, v, out));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } finally {
            if (jfr != null) {
                jfr.close();
            }
        }
        ThroughputReport.printSummary(results, out);
        StageCostReport.print(staged, out);
        if (jfr != null) {
            out.println();
            out.println("JFR profile written to " + jfr.file().toAbsolutePath());
            Predicate<String> pipelineStreamThreads = name -> name.contains("pipeline-") && name.matches(".*-StreamThread-\\d+$");
            JfrProfile.print(JfrProfile.summarize(jfr.file(), pipelineStreamThreads), "the pipeline's stream threads", top, out);
        }
        return results;
    }

    /** With {@code --stage-costs}: each variant's timed pipelines and skeletons. */
    private final List<StageCostReport.Variant> staged = new ArrayList<>();

    /** One variant's settings and topics. */
    private record Variant(String label, String tagBase, String prefix, Workload.Input input, long taskCount, String inputTopic,
                           String passthroughOut, String matchedOut, Map<String, String> both, Map<String, String> pipeline) {
    }

    private Result runVariant(BenchCluster cluster, Variant v, PrintStream out) throws Exception {
        for (int round = 1 - warmupRounds; round <= rounds; round++) {
            String tag = v.tagBase() + "-r" + (round + warmupRounds);
            String roundPrefix = pipelinePrefix(v.prefix(), v.input(), tag);
            AppUnderTest.createPipelineTopics(cluster, v.prefix() + "pipeline-" + tag, roundPrefix, partitions, v.pipeline());
            if (!roundPrefix.equals(v.prefix())) {
                // JSON in: the pipeline writes the canonical records to its own agent-results, which a later round must
                // not read again; so each round has its own topics and its own copy of the input, loaded before it
                // starts (not timed).
                Workload.produce(cluster.bootstrapServers(), cluster.registryUrl(), v.input().topic(roundPrefix),
                        v.input(), records, v.taskCount());
            }
            if (stageCosts) {
                StageCostRounds.Names names = StageCostRounds.Names.of(v.prefix(), tag, v.input().json());
                new StageCostRounds(cluster, records, partitions).prepare(names, v.inputTopic(), v.input().json(), v.pipeline());
                if (v.input().json()) {
                    Workload.produce(cluster.bootstrapServers(), cluster.registryUrl(),
                            names.timedPrefix() + TopicNames.AGENT_RESULTS_JSON, v.input(), records, v.taskCount());
                }
            }
        }
        List<StageCostRounds.Measured> stagedRounds = new ArrayList<>();
        List<Round> pass = new ArrayList<>();
        List<Round> pipe = new ArrayList<>();
        List<Round> match = new ArrayList<>();
        for (int round = 1 - warmupRounds; round <= rounds; round++) {
            String tag = v.tagBase() + "-r" + (round + warmupRounds);
            String passId = v.prefix() + "passthrough-" + tag;
            Round p = RoundMeasure.measure(cluster, records, v.passthroughOut(), passId, () -> AppUnderTest.passthrough(cluster, passId,
                    v.inputTopic(), v.passthroughOut(), cluster.dir().resolve(passId), v.both()));
            String roundPrefix = pipelinePrefix(v.prefix(), v.input(), tag);
            String pipeId = v.prefix() + "pipeline-" + tag;
            Round q = RoundMeasure.measure(cluster, records, roundPrefix + TopicNames.OUTCOMES_CLASSIFIED, pipeId, () -> AppUnderTest.pipeline(cluster,
                    pipeId, roundPrefix, partitions, cluster.dir().resolve(pipeId), v.pipeline()));
            Round m = null;
            if (matched) {
                String matchId = v.prefix() + "matched-" + tag;
                int extra = AppUnderTest.extraTopicsFor(q.writes(), p.writes(), partitions);
                List<String> extraTopics = new ArrayList<>();
                for (int i = 0; i < extra; i++) {
                    extraTopics.add(v.prefix() + "matched-extra-" + tag + "-" + i);
                }
                TopicProvisioner.ensure(cluster.clientConfig(), extraTopics.stream()
                        .map(t -> new TopicProvisioner.TopicSpec(t, partitions, Topics.Cleanup.DELETE)).toList(), (short) -1);
                Round pipeline = q;
                m = RoundMeasure.measure(cluster, records, v.matchedOut(), matchId, () -> AppUnderTest.matchedPassthrough(cluster, matchId,
                        v.inputTopic(), v.matchedOut(), extraTopics, cluster.dir().resolve(matchId), v.both(),
                        pipeline.writes(), p.writes()));
            }
            ThroughputReport.printRound(out, v.label(), round, p, q, m);
            if (stageCosts) {
                StageCostRounds.Measured s = new StageCostRounds(cluster, records, partitions).run(StageCostRounds.Names.of(
                        v.prefix(), tag, v.input().json()), v.inputTopic(), v.input().json(), v.pipeline(), v.both());
                StageCostReport.printRound(out, v.label(), round, s);
                if (round > 0) {
                    stagedRounds.add(s);
                }
            }
            if (round > 0) {
                pass.add(p);
                pipe.add(q);
                if (m != null) {
                    match.add(m);
                }
            }
        }
        if (stageCosts) {
            staged.add(new StageCostReport.Variant(v.label(), Integer.parseInt(v.both().get(StreamsConfig.NUM_STREAM_THREADS_CONFIG)),
                    pass, pipe, stagedRounds));
        }
        return new Result(v.label(), pass, pipe, match);
    }

    private Map<String, String> pipelineSettings(Map<String, String> both, boolean analyticsOn, boolean timingsOn) {
        Map<String, String> pipeline = new HashMap<>(both);
        pipeline.put(AnalyticsConfig.ANALYTICS_ENABLED, String.valueOf(analyticsOn));
        pipeline.put(MetricsConfig.METRICS_STAGE_TIMINGS_ENABLED, String.valueOf(timingsOn));
        return pipeline;
    }

    static boolean onOff(String option, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException(option + " takes on or off, not '" + value + "'");
        };
    }

    /**
     * The topic prefix of a pipeline round: the variant's own for Avro in (every round reads the one pre-loaded input
     * and writes nothing another round reads), one per round for JSON in (the pipeline writes the canonical records
     * to its {@code agent-results}, which the next round's pipeline would read again).
     */
    private static String pipelinePrefix(String prefix, Workload.Input input, String tag) {
        return input.normalized() ? prefix + tag + "." : prefix;
    }
}
