package io.agentoutcomes.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What {@link StageCostWrapper} measured in one application: per processor node, the nanoseconds spent in it
 * exclusive of the wrapped processors it forwarded to (a sink's serialization and send count to the node that
 * forwards to it), how often it processed a record, and the nanoseconds of its punctuations. Filed under the
 * application id, as {@link WriteCounting} files writes: Kafka Streams makes the wrapper from its class name.
 */
final class StageCosts {
    /** One node's figures, summed over its tasks and stream threads. */
    static final class NodeCost {
        final LongAdder nanos = new LongAdder();
        final LongAdder calls = new LongAdder();
        final LongAdder punctuationNanos = new LongAdder();
    }

    /** One stage's figures per input record: microseconds (process and punctuation), node calls, and its nodes. */
    record StageFigures(String stage, double micros, double punctuationMicros, double callsPerRecord, List<String> nodes) {
    }

    /**
     * The stages, by node-name prefix, in the order records pass them: the names the topology gives its nodes with
     * {@code Named.as} (Topology#describe). A node no prefix claims is reported under {@link #OTHER} by name, so a
     * renamed or new node shows rather than vanishes. Kafka's own names of a stage's parts (a repartition's filter,
     * a split's branches) start with the stage's name.
     */
    static final Map<String, List<String>> STAGES = stages();
    static final String OTHER = "other (not mapped to a stage)";
    /** Intake with the agent results' attribution and pricing, which run inside its node. */
    static final String INTAKE = "intake + attribution + pricing";

    private static final Map<String, StageCosts> BY_APPLICATION = new ConcurrentHashMap<>();
    /** Per stream thread: the time spent so far in wrapped processors below the one running. */
    private static final ThreadLocal<long[]> BELOW = ThreadLocal.withInitial(() -> new long[1]);

    private final LongSupplier clock;
    private final Map<String, NodeCost> nodes = new ConcurrentHashMap<>();

    private StageCosts(LongSupplier clock) {
        this.clock = clock;
    }

    private static Map<String, List<String>> stages() {
        Map<String, List<String>> stages = new LinkedHashMap<>();
        stages.put("ingest (JSON normalization)", List.of("normalize-"));
        // One node accepts, attributes and prices an agent result (issue 30): their costs are one row.
        stages.put(INTAKE, List.of("agent-results-", "node-finished-", "continuation-events-"));
        stages.put("classify", List.of("classify-", "all-classified-outcomes"));
        stages.put("route", List.of("route-"));
        stages.put("schedule", List.of("schedule-"));
        stages.put("provider gate", List.of("gate-", "key-retries-by-provider", "provider-", "tally-provider-signals"));
        stages.put("replay", List.of("replay-"));
        stages.put("analytics", List.of("analytics-"));
        stages.put("budgets", List.of("budget-", "charge-budgets"));
        return stages;
    }

    /** The figures of an application, made on first use with {@code System.nanoTime} as its clock. */
    static StageCosts of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, id -> new StageCosts(System::nanoTime));
    }

    /** Files an application's figures with the given clock (tests), replacing any it had. */
    static StageCosts register(String applicationId, LongSupplier clock) {
        StageCosts costs = new StageCosts(clock);
        BY_APPLICATION.put(applicationId, costs);
        return costs;
    }

    /** Runs one call of a node, adding its exclusive time to {@code node} and its whole time to its caller's. */
    void timed(NodeCost node, boolean punctuation, Runnable call) {
        long[] below = BELOW.get();
        long callerBelow = below[0];
        below[0] = 0;
        long start = clock.getAsLong();
        try {
            call.run();
        } finally {
            long elapsed = clock.getAsLong() - start;
            (punctuation ? node.punctuationNanos : node.nanos).add(elapsed - below[0]);
            if (!punctuation) {
                node.calls.increment();
            }
            below[0] = callerBelow + elapsed;
        }
    }

    NodeCost node(String name) {
        return nodes.computeIfAbsent(name, n -> new NodeCost());
    }

    /** Each node's calls so far. */
    Map<String, Long> calls() {
        Map<String, Long> calls = new LinkedHashMap<>();
        nodes.forEach((name, cost) -> calls.put(name, cost.calls.sum()));
        return calls;
    }

    /** The stage a node belongs to, by the longest matching prefix; {@link #OTHER} if none. */
    static String stageOf(String node) {
        String best = OTHER;
        int length = 0;
        for (Map.Entry<String, List<String>> stage : STAGES.entrySet()) {
            for (String prefix : stage.getValue()) {
                if (node.startsWith(prefix) && prefix.length() > length) {
                    best = stage.getKey();
                    length = prefix.length();
                }
            }
        }
        return best;
    }

    /** Every stage (those with no node too, as zero) and the unmapped nodes, per input record. */
    List<StageFigures> perRecord(long records) {
        List<StageFigures> figures = new ArrayList<>();
        List<String> order = new ArrayList<>(STAGES.keySet());
        order.add(OTHER);
        for (String stage : order) {
            long nanos = 0;
            long punctuation = 0;
            long calls = 0;
            List<String> names = new ArrayList<>();
            for (Map.Entry<String, NodeCost> node : nodes.entrySet()) {
                if (stageOf(node.getKey()).equals(stage)) {
                    nanos += node.getValue().nanos.sum();
                    punctuation += node.getValue().punctuationNanos.sum();
                    calls += node.getValue().calls.sum();
                    names.add(node.getKey());
                }
            }
            if (stage.equals(OTHER) && names.isEmpty()) {
                continue;
            }
            names.sort(null);
            figures.add(new StageFigures(stage, (nanos + punctuation) / 1e3 / records, punctuation / 1e3 / records,
                    (double) calls / records, names));
        }
        return figures;
    }
}
