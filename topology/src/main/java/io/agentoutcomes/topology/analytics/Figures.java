package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one definition of every figure the service shows (docs/analytics.md, "Figures"): the demo and fleet report,
 * {@code GET /analytics}, the dashboard, the domain meters of {@code /metrics} and the Grafana panels drawn from them
 * all read these, from aggregates that {@link LivePartial} made of the classified outcomes, so one run gives every
 * surface the same numbers.
 * <ul>
 *   <li>outcomes: every classified outcome, agents' and workflow nodes' ({@link MetricsAggregator#WORKFLOW}), by result type;</li>
 *   <li>tokens: {@link #tokens}, by type with a type for results that report only a total;</li>
 *   <li>cost: the reported total of every result, model or none ({@value MetricsAggregator#UNKNOWN});</li>
 *   <li>retries: outcomes whose decision is retry, each one record on a {@code retry-delay-<tier>} topic;</li>
 *   <li>dead letters: stops that are not compensatable, each one record on {@code dead-letter}.</li>
 * </ul>
 */
public final class Figures {
    private Figures() {
    }

    /**
     * Tokens by type: {@code input} as the OpenTelemetry GenAI conventions count it (uncached input, cache reads and
     * cache writes), {@code output}, and {@code unknown}: the tokens of results that report only a total (an envelope's
     * {@code tokensUsed}, a review result's {@code metrics.tokensUsed}), whose type nobody said. They add up to the total.
     */
    public record Tokens(long input, long output, long unknown) {
        /** Every token, each counted once: the aggregate's {@code totalTokens}. */
        public long total() {
            return Counts.plus(Counts.plus(input, output), unknown);
        }
    }

    /** An aggregate's tokens by type. */
    public static Tokens tokens(AgentMetrics metrics) {
        long input = Counts.plus(Counts.plus(metrics.getInputTokens(), metrics.getCacheReadTokens()),
                metrics.getCacheWriteTokens());
        long typed = Counts.plus(input, metrics.getOutputTokens());
        return new Tokens(input, metrics.getOutputTokens(), Math.max(0, metrics.getTotalTokens() - typed));
    }

    /** Outcomes of every result type. */
    public static long outcomes(AgentMetrics metrics) {
        return metrics.getCompletions().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Dead letters of every stop reason. */
    public static long deadLetters(AgentMetrics metrics) {
        return metrics.getDeadLetters().values().stream().mapToLong(Long::longValue).sum();
    }

    /** Aggregates summed by model (several agents and providers of one model are one). */
    public static Map<String, AgentMetrics> byModel(Collection<AgentMetrics> aggregates) {
        Map<String, AgentMetrics> byModel = new TreeMap<>();
        aggregates.forEach(m -> byModel.merge(m.getModel(), m, MetricsAggregator::merge));
        return byModel;
    }

    /**
     * The aggregates of a sequence of classified outcomes, one per key, added by the analytics' own rules: what a
     * reader of {@code outcomes-classified} (the fleet report) counts. Not thread-safe.
     */
    public static final class Tally {
        private final Map<Dimensions, LivePartial> partials = new LinkedHashMap<>();

        /** Adds one classified outcome. */
        public void add(ClassifiedOutcome outcome) {
            partials.computeIfAbsent(Dimensions.of(outcome), LivePartial::of).add(outcome);
        }

        /** The aggregates so far, one per agent, model and provider. */
        public Collection<AgentMetrics> aggregates() {
            return partials.values().stream().map(LivePartial::toMetrics).toList();
        }
    }
}
