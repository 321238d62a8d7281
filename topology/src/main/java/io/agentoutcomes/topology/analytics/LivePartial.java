package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.classify.Outcomes;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;

/**
 * One key's partial aggregate while records are added to it, one at a time: counts in arrays indexed by enum, money in
 * pico-dollars as {@code long}s, durations straight into a live sketch; an {@link AgentMetrics} is made of it only
 * when it is written ({@link #toMetrics}). These are the aggregation rules: {@link #addTo} adds one outcome to a stored
 * aggregate through here too, so every surface counts an outcome the same way (docs/analytics.md). Not thread-safe.
 */
public final class LivePartial {
    private static final ResultType[] RESULT_TYPES = ResultType.values();
    private static final StopReason[] STOP_REASONS = StopReason.values();
    /** Retry counts below this are counted in an array, larger ones in a map. */
    private static final int SMALL_RETRY_COUNTS = 16;

    /** What the partial started from (a stored aggregate), or null for nothing. */
    private final AgentMetrics base;
    private final Dimensions key;
    private final long[] completions = new long[RESULT_TYPES.length];
    private final long[] deadLetters = new long[STOP_REASONS.length];
    private final long[] continuationStops = new long[STOP_REASONS.length];
    private final long[] confidenceTenths = new long[10];
    private final long[] smallRetryCounts = new long[SMALL_RETRY_COUNTS];
    private Map<Integer, Long> largeRetryCounts;
    private Map<String, Long> failuresByErrorCode;
    private long attempts;
    private long retries;
    private long ignoredFailures;
    private long inputTokens;
    private long outputTokens;
    private long reasoningTokens;
    private long cacheReadTokens;
    private long cacheWriteTokens;
    private long totalTokens;
    private long apiCalls;
    private final PicoSum costTotal = new PicoSum();
    private final PicoSum costInput = new PicoSum();
    private final PicoSum costOutput = new PicoSum();
    private final PicoSum costCacheRead = new PicoSum();
    private final PicoSum costCacheWrite = new PicoSum();
    private final PicoSum costReported = new PicoSum();
    private final PicoSum costComputed = new PicoSum();
    private final AbstractHistogram sketch = DurationSketch.empty();
    private long durationSumMs;
    private long durationCount;
    private final GenAiHistograms genAi = new GenAiHistograms();

    private LivePartial(Dimensions key, AgentMetrics base) {
        this.key = key;
        this.base = base;
    }

    /** An empty partial of a key. */
    public static LivePartial of(Dimensions key) {
        return new LivePartial(key, null);
    }

    /** A partial going on from a stored aggregate (after a restart). */
    public static LivePartial from(Dimensions key, AgentMetrics stored) {
        return new LivePartial(key, stored);
    }

    /** The aggregate with one more classified outcome of its key, by the rules of {@link #add}. */
    public static AgentMetrics addTo(AgentMetrics aggregate, ClassifiedOutcome outcome) {
        return from(Dimensions.of(aggregate), aggregate).add(outcome).toMetrics();
    }

    /** The aggregate with one more continuation event: a stop is counted by its reason. */
    public static AgentMetrics addContinuationTo(AgentMetrics aggregate, ContinuationEvaluated event) {
        return from(Dimensions.of(aggregate), aggregate).addContinuation(event).toMetrics();
    }

    /** Adds one classified outcome of this partial's key. */
    public LivePartial add(ClassifiedOutcome outcome) {
        ResultType type = outcome.getResultType();
        completions[type.ordinal()]++;
        if (type != ResultType.IN_PROGRESS) {
            attempts++;
        }
        Decision decision = outcome.getDecision();
        if (Outcomes.isRetry(outcome)) {
            retries++;
        } else if (decision != null && decision.getHandling() == ErrorHandling.IGNORE) {
            ignoredFailures++;
        } else if (Outcomes.isDeadLetter(outcome)) {
            StopReason reason = decision.getStopReason();
            deadLetters[(reason == null ? StopReason.ERROR : reason).ordinal()]++;
        }
        if (outcome.getErrorCode() != null && isFailure(type)) {
            if (failuresByErrorCode == null) {
                failuresByErrorCode = new HashMap<>();
            }
            failuresByErrorCode.merge(outcome.getErrorCode(), 1L, Long::sum);
        }
        Integer retryCount = outcome.getRetryCount();
        if (retryCount != null) {
            if (retryCount >= 0 && retryCount < SMALL_RETRY_COUNTS) {
                smallRetryCounts[retryCount]++;
            } else {
                if (largeRetryCounts == null) {
                    largeRetryCounts = new HashMap<>();
                }
                largeRetryCounts.merge(retryCount, 1L, Long::sum);
            }
        }
        AgentResult result = outcome.getAgentResult();
        Double confidence = result == null ? null : result.getConfidence();
        if (confidence != null && type != ResultType.IN_PROGRESS) {
            confidenceTenths[confidenceTenth(confidence)]++;
        }
        ExecutionMetadata execution = result == null ? null : result.getExecution();
        if (execution == null) {
            return this;
        }
        Usage usage = execution.getUsage();
        TokenNormalizer.Tokens tokens = TokenNormalizer.normalize(usage, execution.getProvider());
        if (usage != null && (usage.getTotalTokens() != null || TokenNormalizer.partsKnown(usage))) {
            genAi.addTokens(tokens, TokenNormalizer.partsKnown(usage));
        }
        inputTokens = Counts.plus(inputTokens, tokens.input());
        outputTokens = Counts.plus(outputTokens, tokens.output());
        reasoningTokens = Counts.plus(reasoningTokens, tokens.reasoning());
        cacheReadTokens = Counts.plus(cacheReadTokens, tokens.cacheRead());
        cacheWriteTokens = Counts.plus(cacheWriteTokens, tokens.cacheWrite());
        totalTokens = Counts.plus(totalTokens, tokens.total());
        apiCalls = Counts.plus(apiCalls, tokens.apiCalls());
        Cost cost = execution.getCost();
        if (cost != null) {
            costTotal.add(cost.getTotal());
            costInput.add(cost.getInput());
            costOutput.add(cost.getOutput());
            costCacheRead.add(cost.getCacheRead());
            costCacheWrite.add(cost.getCacheWrite());
            (cost.getSource() == CostSource.COMPUTED ? costComputed : costReported).add(cost.getTotal());
        }
        if (execution.getDurationMs() != null) {
            long recorded = DurationSketch.record(sketch, execution.getDurationMs());
            durationSumMs = Counts.plus(durationSumMs, recorded);
            durationCount++;
            genAi.addDuration(recorded, isFailure(type) ? errorType(outcome) : null);
        }
        return this;
    }

    /** Adds a continuation event: a stop is counted by its reason. */
    public LivePartial addContinuation(ContinuationEvaluated event) {
        if (!event.getShouldContinue()) {
            continuationStops[event.getStopReason().ordinal()]++;
        }
        return this;
    }

    /** The aggregate: what it started from plus everything added since. */
    public AgentMetrics toMetrics() {
        AgentMetrics added = key.applyTo(AgentMetrics.newBuilder())
                .setCompletions(byName(completions, RESULT_TYPES))
                .setAttempts(attempts).setRetries(retries).setIgnoredFailures(ignoredFailures)
                .setRetryCounts(retryCounts())
                .setConfidenceBuckets(confidenceBuckets())
                .setDeadLetters(byName(deadLetters, STOP_REASONS))
                .setFailuresByErrorCode(failuresByErrorCode == null ? new HashMap<>() : new HashMap<>(failuresByErrorCode))
                .setContinuationStops(byName(continuationStops, STOP_REASONS))
                .setInputTokens(inputTokens).setOutputTokens(outputTokens).setReasoningTokens(reasoningTokens)
                .setCacheReadTokens(cacheReadTokens)
                .setCacheWriteTokens(cacheWriteTokens).setTotalTokens(totalTokens).setApiCalls(apiCalls)
                .setCostTotal(costTotal.value()).setCostInput(costInput.value()).setCostOutput(costOutput.value())
                .setCostCacheRead(costCacheRead.value()).setCostCacheWrite(costCacheWrite.value())
                .setCostReported(costReported.value()).setCostComputed(costComputed.value())
                .setDurationSketch(DurationSketch.encode(sketch))
                .setDurationCount(durationCount).setDurationSumMs(durationSumMs)
                .setGenAiHistograms(genAi.toMap())
                .build();
        return base == null ? added : MetricsAggregator.merge(base, added);
    }

    private Map<String, Long> retryCounts() {
        Map<String, Long> counts = new HashMap<>();
        for (int i = 0; i < smallRetryCounts.length; i++) {
            if (smallRetryCounts[i] > 0) {
                counts.put(String.valueOf(i), smallRetryCounts[i]);
            }
        }
        if (largeRetryCounts != null) {
            largeRetryCounts.forEach((count, tasks) -> counts.put(String.valueOf(count), tasks));
        }
        return counts;
    }

    private Map<String, Long> confidenceBuckets() {
        Map<String, Long> buckets = new HashMap<>();
        for (int tenth = 0; tenth < confidenceTenths.length; tenth++) {
            if (confidenceTenths[tenth] > 0) {
                buckets.put(tenth == 9 ? "0.9-1.0" : "0." + tenth + "-0." + (tenth + 1), confidenceTenths[tenth]);
            }
        }
        return buckets;
    }

    private static <E extends Enum<E>> Map<String, Long> byName(long[] counts, E[] symbols) {
        Map<String, Long> named = new HashMap<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                named.put(symbols[i].name(), counts[i]);
            }
        }
        return named;
    }

    /**
     * The tenth a confidence (0..1) falls in, as its decimal says: 0.7 is in {@code 0.7-0.8} although
     * {@code 0.7 * 10} may not be 7 in binary floating point; 1.0 is in the last. {@code k / 10.0} is the double nearest
     * to the decimal k/10, so a confidence at or above it is written k/10 or more, and one below it less: the product's
     * rounding is corrected against those bounds.
     */
    static int confidenceTenth(double confidence) {
        int tenth = (int) Math.floor(confidence * 10);
        if (tenth > 0 && confidence < tenth / 10.0) {
            tenth--;
        } else if (confidence >= (tenth + 1) / 10.0) {
            tenth++;
        }
        return Math.max(0, Math.min(9, tenth));
    }

    /** A failure's {@code error.type}: its canonical error code, else the conventions' fallback {@code _OTHER}. */
    private static String errorType(ClassifiedOutcome outcome) {
        return outcome.getErrorCode() == null ? "_OTHER" : outcome.getErrorCode();
    }

    private static boolean isFailure(ResultType type) {
        return switch (type) {
            case RETRYABLE_FAILURE, PERMANENT_FAILURE, COMPENSATABLE_FAILURE, IGNORED_FAILURE -> true;
            case SUCCESS, SKIPPED, IN_PROGRESS -> false;
        };
    }

    /** An exact sum of money: pico-dollars in a long, in a decimal once it would overflow. */
    private static final class PicoSum {
        private long picos;
        private BigDecimal overflow;

        void add(ByteBuffer amount) {
            if (amount == null || !amount.hasRemaining()) {
                return;
            }
            if (overflow == null && amount.remaining() <= Long.BYTES) {
                long value = Money.picos(amount);
                long sum = picos + value;
                if (((picos ^ sum) & (value ^ sum)) >= 0) {
                    picos = sum;
                    return;
                }
            }
            overflow = (overflow == null ? BigDecimal.valueOf(picos, Money.SCALE) : overflow).add(Money.toDecimal(amount));
            picos = 0;
        }

        BigDecimal value() {
            return overflow != null ? overflow : BigDecimal.valueOf(picos, Money.SCALE);
        }
    }
}
