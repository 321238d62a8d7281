package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One aggregate's value of every {@link Dimension}, in the dimensions' order: what the analytics group by. Every
 * classified outcome has one, so {@code outcomes-classified} and the analytics count the same outcomes.
 */
public record Dimensions(List<String> values) {
    /** The value of a dimension a result does not state. */
    public static final String UNKNOWN = "unknown";
    /**
     * The agent id workflow-node outcomes are aggregated under ({@code node_finished} events name no agent), every
     * other dimension {@value #UNKNOWN}: their retries, dead letters and outcomes count like an agent's
     * (docs/analytics.md).
     */
    public static final String WORKFLOW = "_workflow";

    public Dimensions {
        if (values.size() != Dimension.values().length) {
            throw new IllegalArgumentException("one value per dimension expected, got " + values);
        }
        values = List.copyOf(values);
    }

    /** The values in the order of {@link Dimension#values()}. */
    public static Dimensions of(String... values) {
        return new Dimensions(Arrays.asList(values));
    }

    /**
     * The dimensions of an outcome: an agent's as its result states them ({@value #UNKNOWN} where it does not); a
     * workflow node's {@value #WORKFLOW}.
     */
    public static Dimensions of(ClassifiedOutcome outcome) {
        AgentResult result = outcome.getAgentResult();
        return result == null ? ofAgent(WORKFLOW) : of(dimension -> orUnknown(dimension.of(result)));
    }

    /** Every dimension the same value (the {@code _other} of a capped label set). */
    public static Dimensions allOf(String value) {
        return of(dimension -> value);
    }

    /** An agent's dimensions where nothing but the agent is known (its continuation events). */
    public static Dimensions ofAgent(String agentId) {
        return of(dimension -> dimension == Dimension.AGENT ? agentId : UNKNOWN);
    }

    /** The dimensions an aggregate is of. */
    public static Dimensions of(AgentMetrics metrics) {
        return of(dimension -> dimension.of(metrics));
    }

    /** This key's value of a dimension. */
    public String value(Dimension dimension) {
        return values.get(dimension.ordinal());
    }

    /** Sets every dimension of an aggregate being built to this key's values. */
    public AgentMetrics.Builder applyTo(AgentMetrics.Builder metrics) {
        for (Dimension dimension : Dimension.values()) {
            dimension.set(metrics, value(dimension));
        }
        return metrics;
    }

    private static Dimensions of(Function<Dimension, String> valueOf) {
        List<String> values = new ArrayList<>(Dimension.values().length);
        for (Dimension dimension : Dimension.values()) {
            values.add(valueOf.apply(dimension));
        }
        return new Dimensions(values);
    }

    private static String orUnknown(String value) {
        return value == null || value.isBlank() ? UNKNOWN : value;
    }
}
