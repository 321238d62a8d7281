package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.AbstractHistogram;

/**
 * The aggregation rules of the analytics, as pure functions on {@link AgentMetrics}: one classified outcome or
 * continuation event added at a time, and partial aggregates merged (associative and commutative, so partitions and
 * windows combine in any order). Money is summed as decimals, exactly; tokens are normalized by
 * {@link TokenNormalizer}; durations go into an HdrHistogram sketch.
 */
public final class MetricsAggregator {
    public static final String UNKNOWN = "unknown";
    /**
     * The agent id workflow-node outcomes are aggregated under ({@code node_finished} events name no agent), with model
     * and provider {@value #UNKNOWN}: their retries, dead letters and outcomes count like an agent's (docs/analytics.md).
     */
    public static final String WORKFLOW = "_workflow";

    /** What the analytics group by. */
    public record Key(String agentId, String model, String provider) {
        /**
         * The key of an outcome: an agent's by its agent, model and provider ({@value #UNKNOWN} where the result does
         * not say); a workflow node's {@value #WORKFLOW}. Every classified outcome has one: {@code outcomes-classified}
         * and the analytics count the same outcomes.
         */
        public static Optional<Key> of(ClassifiedOutcome outcome) {
            AgentResult result = outcome.getAgentResult();
            if (result == null) {
                return Optional.of(new Key(WORKFLOW, UNKNOWN, UNKNOWN));
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
                .setCostTotal(Money.ZERO).setCostInput(Money.ZERO).setCostOutput(Money.ZERO).setCostCacheRead(Money.ZERO)
                .setCostCacheWrite(Money.ZERO)
                .setDurationSketch(DurationSketch.encode(DurationSketch.empty()))
                .build();
    }

    /** The aggregate with one more classified outcome of its key (the rules are {@link LivePartial#add}'s). */
    public static AgentMetrics add(AgentMetrics aggregate, ClassifiedOutcome outcome) {
        return LivePartial.from(keyOf(aggregate), aggregate).add(outcome).toMetrics();
    }

    /** The aggregate with one more continuation event: a stop is counted by its reason. */
    public static AgentMetrics addContinuation(AgentMetrics aggregate, ContinuationEvaluated event) {
        return LivePartial.from(keyOf(aggregate), aggregate).addContinuation(event).toMetrics();
    }

    private static Key keyOf(AgentMetrics aggregate) {
        return new Key(aggregate.getAgentId(), aggregate.getModel(), aggregate.getProvider());
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
        addTokens(next, new TokenNormalizer.Tokens(b.getInputTokens(), b.getOutputTokens(), b.getCacheReadTokens(),
                b.getCacheWriteTokens(), b.getTotalTokens(), b.getApiCalls()));
        next.setCostTotal(a.getCostTotal().add(b.getCostTotal()));
        next.setCostInput(a.getCostInput().add(b.getCostInput()));
        next.setCostOutput(a.getCostOutput().add(b.getCostOutput()));
        next.setCostCacheRead(a.getCostCacheRead().add(b.getCostCacheRead()));
        next.setCostCacheWrite(a.getCostCacheWrite().add(b.getCostCacheWrite()));
        AbstractHistogram sketch = DurationSketch.decode(a.getDurationSketch());
        sketch.add(DurationSketch.decode(b.getDurationSketch()));
        next.setDurationSketch(DurationSketch.encode(sketch));
        next.setDurationCount(a.getDurationCount() + b.getDurationCount());
        next.setDurationSumMs(LivePartial.plus(a.getDurationSumMs(), b.getDurationSumMs()));
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
        next.setInputTokens(LivePartial.plus(next.getInputTokens(), tokens.input()));
        next.setOutputTokens(LivePartial.plus(next.getOutputTokens(), tokens.output()));
        next.setCacheReadTokens(LivePartial.plus(next.getCacheReadTokens(), tokens.cacheRead()));
        next.setCacheWriteTokens(LivePartial.plus(next.getCacheWriteTokens(), tokens.cacheWrite()));
        next.setTotalTokens(LivePartial.plus(next.getTotalTokens(), tokens.total()));
        next.setApiCalls(LivePartial.plus(next.getApiCalls(), tokens.apiCalls()));
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
