package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.ResultType;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the generator expects, computed from what it produced and nothing else (never the pipeline's classifier): one
 * classified outcome per result id with its result type, which of them are retried, dead-lettered or compensated, the
 * analytics sums per window and agent/model/provider, and each job's completed nodes.
 */
final class Tally {
    /** The sums analytics must report for one window and agent/model/provider. */
    static final class Sums {
        final Map<String, Long> completions = new TreeMap<>();
        long inputTokens;
        long outputTokens;
        long totalTokens;
        BigDecimal cost = BigDecimal.ZERO;
        long retries;

        @Override
        public String toString() {
            return "completions=" + completions + ", inputTokens=" + inputTokens + ", outputTokens=" + outputTokens
                    + ", totalTokens=" + totalTokens + ", cost=" + cost.toPlainString() + ", retries=" + retries;
        }
    }

    final Map<String, ResultType> outcomes = new ConcurrentHashMap<>();
    final Set<String> retried = ConcurrentHashMap.newKeySet();
    final Set<String> deadLettered = ConcurrentHashMap.newKeySet();
    final Set<String> compensated = ConcurrentHashMap.newKeySet();
    /** By analytics key {@code <1m|1h|total>|<start, 13 digits>|agent|model|provider|tenant}, as on the metrics topics. */
    final Map<String, Sums> analytics = new ConcurrentHashMap<>();
    final Map<String, Set<String>> completedNodes = new ConcurrentHashMap<>();
    long inputs;

    synchronized void outcome(String resultId, ResultType type, boolean retry, boolean deadLetter) {
        if (outcomes.put(resultId, type) != null) {
            throw new IllegalStateException("the generator produced result id " + resultId + " twice");
        }
        if (retry) {
            retried.add(resultId);
        }
        if (deadLetter) {
            deadLettered.add(resultId);
        }
        inputs++;
    }

    /** Adds one agent outcome at {@code timestamp} to its 1m, 1h and total sums. */
    synchronized void analytics(long timestamp, String agent, String model, String provider, ResultType type,
                                long input, long output, long total, BigDecimal cost, boolean retry) {
        for (String window : new String[] {"1m", "1h", "total"}) {
            long start = switch (window) {
                case "1m" -> timestamp - Math.floorMod(timestamp, 60_000L);
                case "1h" -> timestamp - Math.floorMod(timestamp, 3_600_000L);
                default -> 0L;
            };
            // the tenant part of the default analytics.dimensions: the load names no tenant
            String key = String.join("|", window, String.format("%013d", start), agent, model, provider, "unknown");
            Sums sums = analytics.computeIfAbsent(key, k -> new Sums());
            sums.completions.merge(type.name(), 1L, Long::sum);
            sums.inputTokens += input;
            sums.outputTokens += output;
            sums.totalTokens += total;
            sums.cost = sums.cost.add(cost);
            sums.retries += retry ? 1 : 0;
        }
    }

    synchronized void completedNode(String jobId, String nodeId) {
        completedNodes.computeIfAbsent(jobId, j -> new TreeSet<>()).add(nodeId);
    }

    synchronized void job(String jobId) {
        completedNodes.computeIfAbsent(jobId, j -> new TreeSet<>());
    }

    synchronized long inputs() {
        return inputs;
    }
}
