package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.Money;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;

/**
 * The merge rules of the analytics, as pure functions on {@link AgentMetrics}: the empty aggregate of a key, and
 * partial aggregates merged (associative and commutative, so partitions and windows combine in any order), their
 * duration percentiles read from the merged sketch. Money is summed as decimals, exactly; token counts saturate
 * ({@link Counts}). Adding one outcome or continuation event is {@code LivePartial}'s (its {@code addTo}), which
 * merges what it added into what it started from here.
 */
public final class MetricsAggregator {
    private MetricsAggregator() {
    }

    public static AgentMetrics empty(Dimensions key) {
        return key.applyTo(AgentMetrics.newBuilder())
                .setCostTotal(Money.ZERO).setCostInput(Money.ZERO).setCostOutput(Money.ZERO).setCostCacheRead(Money.ZERO)
                .setCostCacheWrite(Money.ZERO).setCostReported(Money.ZERO).setCostComputed(Money.ZERO)
                .setDurationSketch(DurationSketch.encode(DurationSketch.empty()))
                .build();
    }

    /** Two partial aggregates of the same key and window as one. */
    public static AgentMetrics merge(AgentMetrics a, AgentMetrics b) {
        return merged(a, b, false);
    }

    /** {@link #merge}, with the duration percentiles of the sum read from its sketch (see {@link #withPercentiles}). */
    public static AgentMetrics mergeWithPercentiles(AgentMetrics a, AgentMetrics b) {
        return merged(a, b, true);
    }

    private static AgentMetrics merged(AgentMetrics a, AgentMetrics b, boolean percentiles) {
        AgentMetrics next = AgentMetrics.newBuilder(a).build();
        next.setCompletions(sum(a.getCompletions(), b.getCompletions()));
        next.setAttempts(a.getAttempts() + b.getAttempts());
        next.setRetries(a.getRetries() + b.getRetries());
        next.setIgnoredFailures(a.getIgnoredFailures() + b.getIgnoredFailures());
        next.setRetryCounts(sum(a.getRetryCounts(), b.getRetryCounts()));
        next.setDeadLetters(sum(a.getDeadLetters(), b.getDeadLetters()));
        next.setFailuresByErrorCode(sum(a.getFailuresByErrorCode(), b.getFailuresByErrorCode()));
        next.setContinuationStops(sum(a.getContinuationStops(), b.getContinuationStops()));
        next.setConfidenceBuckets(sum(a.getConfidenceBuckets(), b.getConfidenceBuckets()));
        addTokens(next, new TokenNormalizer.Tokens(b.getInputTokens(), b.getOutputTokens(), b.getReasoningTokens(),
                b.getCacheReadTokens(), b.getCacheWriteTokens(), b.getTotalTokens(), b.getApiCalls()));
        next.setCostTotal(a.getCostTotal().add(b.getCostTotal()));
        next.setCostInput(a.getCostInput().add(b.getCostInput()));
        next.setCostOutput(a.getCostOutput().add(b.getCostOutput()));
        next.setCostCacheRead(a.getCostCacheRead().add(b.getCostCacheRead()));
        next.setCostCacheWrite(a.getCostCacheWrite().add(b.getCostCacheWrite()));
        next.setCostReported(a.getCostReported().add(b.getCostReported()));
        next.setCostComputed(a.getCostComputed().add(b.getCostComputed()));
        AbstractHistogram sketch = DurationSketch.decode(a.getDurationSketch());
        sketch.add(DurationSketch.decode(b.getDurationSketch()));
        next.setDurationSketch(DurationSketch.encode(sketch));
        next.setDurationCount(a.getDurationCount() + b.getDurationCount());
        next.setDurationSumMs(Counts.plus(a.getDurationSumMs(), b.getDurationSumMs()));
        next.setGenAiHistograms(sum(a.getGenAiHistograms(), b.getGenAiHistograms()));
        if (percentiles) {
            setPercentiles(next, sketch);
        }
        return next;
    }


    /** The aggregate with its duration percentiles read from the sketch (null when it holds no duration). */
    public static AgentMetrics withPercentiles(AgentMetrics aggregate) {
        AgentMetrics next = AgentMetrics.newBuilder(aggregate).build();
        setPercentiles(next, DurationSketch.decode(aggregate.getDurationSketch()));
        return next;
    }

    private static void setPercentiles(AgentMetrics target, AbstractHistogram sketch) {
        boolean empty = sketch.getTotalCount() == 0;
        target.setDurationP50Ms(empty ? null : sketch.getValueAtPercentile(50));
        target.setDurationP95Ms(empty ? null : sketch.getValueAtPercentile(95));
        target.setDurationP99Ms(empty ? null : sketch.getValueAtPercentile(99));
    }

    private static void addTokens(AgentMetrics next, TokenNormalizer.Tokens tokens) {
        next.setInputTokens(Counts.plus(next.getInputTokens(), tokens.input()));
        next.setOutputTokens(Counts.plus(next.getOutputTokens(), tokens.output()));
        next.setReasoningTokens(Counts.plus(next.getReasoningTokens(), tokens.reasoning()));
        next.setCacheReadTokens(Counts.plus(next.getCacheReadTokens(), tokens.cacheRead()));
        next.setCacheWriteTokens(Counts.plus(next.getCacheWriteTokens(), tokens.cacheWrite()));
        next.setTotalTokens(Counts.plus(next.getTotalTokens(), tokens.total()));
        next.setApiCalls(Counts.plus(next.getApiCalls(), tokens.apiCalls()));
    }



    private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> next = new HashMap<>(a);
        b.forEach((key, count) -> next.merge(key, count, Long::sum));
        return next;
    }
}
