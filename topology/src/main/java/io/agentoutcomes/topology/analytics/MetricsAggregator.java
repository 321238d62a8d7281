package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.ResultType;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The aggregation rules of the analytics, as pure functions on {@link AgentMetrics}: one classified outcome or
 * continuation event added at a time, and partial aggregates merged (associative and commutative, so partitions and
 * windows combine in any order). Money is summed as decimals, exactly; tokens are normalized by
 * {@link TokenNormalizer}; durations go into an HdrHistogram sketch.
 */
public final class MetricsAggregator {
    public static final String UNKNOWN = "unknown";
    static final int MONEY_SCALE = 12;
    private static final BigDecimal ZERO = BigDecimal.ZERO.setScale(MONEY_SCALE);

    /** What the analytics group by. */
    public record Key(String agentId, String model, String provider) {
        /** The key of an agent's outcome; empty for workflow-node outcomes, which have no agent. */
        public static Optional<Key> of(ClassifiedOutcome outcome) {
            AgentResult result = outcome.getAgentResult();
            if (result == null) {
                return Optional.empty();
            }
            ExecutionMetadata execution = result.getExecution();
            String model = execution == null ? null : execution.getModel();
            String provider = execution == null ? null : execution.getProvider();
            return Optional.of(new Key(result.getAgentId(), orUnknown(model), orUnknown(provider)));
        }
    }

    private MetricsAggregator() {
    }

    public static AgentMetrics empty(Key key) {
        return AgentMetrics.newBuilder()
                .setAgentId(key.agentId()).setModel(key.model()).setProvider(key.provider())
                .setCostTotal(ZERO).setCostInput(ZERO).setCostOutput(ZERO).setCostCacheRead(ZERO).setCostCacheWrite(ZERO)
                .setDurationSketch(DurationSketch.encode(DurationSketch.empty()))
                .build();
    }

    /** The aggregate with one more classified outcome of its key. */
    public static AgentMetrics add(AgentMetrics aggregate, ClassifiedOutcome outcome) {
        AgentMetrics next = mutableCopy(aggregate);
        Histogram sketch = DurationSketch.decode(next.getDurationSketch());
        if (addInPlace(next, sketch, outcome)) {
            next.setDurationSketch(DurationSketch.encode(sketch));
        }
        return next;
    }

    /** A copy whose maps can be changed in place. */
    public static AgentMetrics mutableCopy(AgentMetrics aggregate) {
        AgentMetrics copy = AgentMetrics.newBuilder(aggregate).build();
        copy.setCompletions(new HashMap<>(copy.getCompletions()));
        copy.setRetryCounts(new HashMap<>(copy.getRetryCounts()));
        copy.setDeadLetters(new HashMap<>(copy.getDeadLetters()));
        copy.setFailuresByErrorCode(new HashMap<>(copy.getFailuresByErrorCode()));
        copy.setContinuationStops(new HashMap<>(copy.getContinuationStops()));
        copy.setConfidenceBuckets(new HashMap<>(copy.getConfidenceBuckets()));
        return copy;
    }

    /**
     * Adds one outcome to an aggregate made by {@link #mutableCopy}, changing it in place; its durations go into
     * {@code sketch}, which the caller encodes into the aggregate when it is done. Returns whether the sketch changed.
     */
    public static boolean addInPlace(AgentMetrics target, Histogram sketch, ClassifiedOutcome outcome) {
        ResultType type = outcome.getResultType();
        target.getCompletions().merge(type.name(), 1L, Long::sum);
        if (type != ResultType.IN_PROGRESS) {
            target.setAttempts(target.getAttempts() + 1);
        }
        Decision decision = outcome.getDecision();
        if (decision != null) {
            if (decision.getHandling() == ErrorHandling.RETRY) {
                target.setRetries(target.getRetries() + 1);
            } else if (decision.getHandling() == ErrorHandling.IGNORE) {
                target.setIgnoredFailures(target.getIgnoredFailures() + 1);
            } else if (type != ResultType.COMPENSATABLE_FAILURE && decision.getStopReason() != null) {
                target.getDeadLetters().merge(decision.getStopReason().name(), 1L, Long::sum);
            }
        }
        if (outcome.getErrorCode() != null && isFailure(type)) {
            target.getFailuresByErrorCode().merge(outcome.getErrorCode(), 1L, Long::sum);
        }
        if (outcome.getRetryCount() != null) {
            target.getRetryCounts().merge(String.valueOf(outcome.getRetryCount()), 1L, Long::sum);
        }
        Double confidence = outcome.getAgentResult() == null ? null : outcome.getAgentResult().getConfidence();
        if (confidence != null && type != ResultType.IN_PROGRESS) {
            target.getConfidenceBuckets().merge(confidenceBucket(confidence), 1L, Long::sum);
        }
        ExecutionMetadata execution = outcome.getAgentResult() == null ? null : outcome.getAgentResult().getExecution();
        if (execution == null) {
            return false;
        }
        addTokens(target, TokenNormalizer.normalize(execution.getUsage(), execution.getProvider()));
        addCost(target, execution.getCost());
        if (execution.getDurationMs() == null) {
            return false;
        }
        target.setDurationSumMs(target.getDurationSumMs() + DurationSketch.record(sketch, execution.getDurationMs()));
        target.setDurationCount(target.getDurationCount() + 1);
        return true;
    }

    private static boolean isFailure(ResultType type) {
        return switch (type) {
            case RETRYABLE_FAILURE, PERMANENT_FAILURE, COMPENSATABLE_FAILURE, IGNORED_FAILURE -> true;
            case SUCCESS, SKIPPED, IN_PROGRESS -> false;
        };
    }

    /** The aggregate with one more seed 002 continuation event: a stop is counted by its reason. */
    public static AgentMetrics addContinuation(AgentMetrics aggregate, ContinuationEvaluated event) {
        if (event.getShouldContinue()) {
            return aggregate;
        }
        AgentMetrics next = mutableCopy(aggregate);
        addContinuationInPlace(next, event);
        return next;
    }

    /** Adds a continuation event to an aggregate made by {@link #mutableCopy}, in place. */
    public static void addContinuationInPlace(AgentMetrics target, ContinuationEvaluated event) {
        if (!event.getShouldContinue()) {
            target.getContinuationStops().merge(event.getStopReason().name(), 1L, Long::sum);
        }
    }

    /** Two partial aggregates of the same key and window as one. */
    public static AgentMetrics merge(AgentMetrics a, AgentMetrics b) {
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
        addTokens(next, new TokenNormalizer.Tokens(b.getInputTokens(), b.getOutputTokens(), b.getCacheReadTokens(),
                b.getCacheWriteTokens(), b.getTotalTokens(), b.getApiCalls()));
        next.setCostTotal(a.getCostTotal().add(b.getCostTotal()));
        next.setCostInput(a.getCostInput().add(b.getCostInput()));
        next.setCostOutput(a.getCostOutput().add(b.getCostOutput()));
        next.setCostCacheRead(a.getCostCacheRead().add(b.getCostCacheRead()));
        next.setCostCacheWrite(a.getCostCacheWrite().add(b.getCostCacheWrite()));
        Histogram sketch = DurationSketch.decode(a.getDurationSketch());
        sketch.add(DurationSketch.decode(b.getDurationSketch()));
        next.setDurationSketch(DurationSketch.encode(sketch));
        next.setDurationCount(a.getDurationCount() + b.getDurationCount());
        next.setDurationSumMs(a.getDurationSumMs() + b.getDurationSumMs());
        return next;
    }

    /**
     * The tenth a confidence (0..1) falls in, as {@code 0.6-0.7}; 1.0 is in {@code 0.9-1.0}. Decimal, so 0.7 is in
     * {@code 0.7-0.8} although {@code 0.7 * 10} is not 7 in binary floating point.
     */
    static String confidenceBucket(double confidence) {
        int tenth = Math.min(9, BigDecimal.valueOf(confidence).movePointRight(1).intValue());
        return tenth == 9 ? "0.9-1.0" : "0." + tenth + "-0." + (tenth + 1);
    }

    /** The aggregate with its duration percentiles read from the sketch (null when it holds no duration). */
    public static AgentMetrics withPercentiles(AgentMetrics aggregate) {
        Histogram sketch = DurationSketch.decode(aggregate.getDurationSketch());
        boolean empty = sketch.getTotalCount() == 0;
        return AgentMetrics.newBuilder(aggregate)
                .setDurationP50Ms(empty ? null : sketch.getValueAtPercentile(50))
                .setDurationP95Ms(empty ? null : sketch.getValueAtPercentile(95))
                .setDurationP99Ms(empty ? null : sketch.getValueAtPercentile(99))
                .build();
    }

    private static void addTokens(AgentMetrics next, TokenNormalizer.Tokens tokens) {
        next.setInputTokens(next.getInputTokens() + tokens.input());
        next.setOutputTokens(next.getOutputTokens() + tokens.output());
        next.setCacheReadTokens(next.getCacheReadTokens() + tokens.cacheRead());
        next.setCacheWriteTokens(next.getCacheWriteTokens() + tokens.cacheWrite());
        next.setTotalTokens(next.getTotalTokens() + tokens.total());
        next.setApiCalls(next.getApiCalls() + tokens.apiCalls());
    }

    private static void addCost(AgentMetrics next, Cost cost) {
        if (cost == null) {
            return;
        }
        next.setCostTotal(next.getCostTotal().add(money(cost.getTotal())));
        next.setCostInput(next.getCostInput().add(money(cost.getInput())));
        next.setCostOutput(next.getCostOutput().add(money(cost.getOutput())));
        next.setCostCacheRead(next.getCostCacheRead().add(money(cost.getCacheRead())));
        next.setCostCacheWrite(next.getCostCacheWrite().add(money(cost.getCacheWrite())));
    }

    private static BigDecimal money(BigDecimal amount) {
        return amount == null ? ZERO : amount.setScale(MONEY_SCALE);
    }

    private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> next = new HashMap<>(a);
        b.forEach((key, count) -> next.merge(key, count, Long::sum));
        return next;
    }

    private static String orUnknown(String value) {
        return value == null || value.isBlank() ? UNKNOWN : value;
    }
}
