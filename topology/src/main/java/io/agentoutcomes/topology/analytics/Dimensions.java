package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * One aggregate's value of every {@link Dimension}, in the dimensions' order: what the analytics group by. Every
 * classified outcome has one, so {@code outcomes-classified} and the analytics count the same outcomes. A dimension
 * the windows are not keyed by ({@code analytics.dimensions}) has the value null: not grouped by.
 */
public final class Dimensions {
    /** The value of a dimension a result does not state. */
    public static final String UNKNOWN = "unknown";
    /**
     * The agent id workflow-node outcomes are aggregated under ({@code node_finished} events name no agent), every
     * other dimension {@value #UNKNOWN}: their retries, dead letters and outcomes count like an agent's
     * (docs/analytics.md).
     */
    public static final String WORKFLOW = "_workflow";
    private static final Dimension[] ALL = Dimension.values();

    /** One value per dimension, in their order; null for one not grouped by. Never changed, never handed out. */
    private final String[] values;
    /** The hash, computed on first use (0: not yet): the key of a live partial is hashed per record. */
    private int hash;

    /** @param values one per dimension, in the order of {@link Dimension#values()}; null: not grouped by */
    public Dimensions(List<String> values) {
        this(values.toArray(new String[0]));
    }

    /** Takes {@code values} as its own: the factories below build the array once per key, not three times. */
    private Dimensions(String[] values) {
        if (values.length != ALL.length) {
            throw new IllegalArgumentException("one value per dimension expected, got " + Arrays.toString(values));
        }
        this.values = values;
    }

    /** The values in the order of {@link Dimension#values()}; null for the dimensions not grouped by. */
    public List<String> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof Dimensions that && Arrays.equals(values, that.values);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(values);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return "Dimensions[values=" + Arrays.toString(values) + "]";
    }

    /** The values in the order of {@link Dimension#values()}; those left out are not grouped by. */
    public static Dimensions of(String... values) {
        return new Dimensions(Arrays.copyOf(values, ALL.length));
    }

    /** The dimensions of an outcome, keyed by the default dimensions ({@link Dimension#DEFAULTS}). */
    public static Dimensions of(ClassifiedOutcome outcome) {
        return of(outcome, Dimension.DEFAULTS);
    }

    /**
     * The dimensions of an outcome: an agent's as its result states them ({@value #UNKNOWN} where it does not); a
     * workflow node's {@value #WORKFLOW}; null for the dimensions not in {@code keyed}.
     */
    public static Dimensions of(ClassifiedOutcome outcome, Set<Dimension> keyed) {
        AgentResult result = outcome.getAgentResult();
        if (result == null) {
            return ofAgent(WORKFLOW, keyed);
        }
        String[] values = new String[ALL.length];
        for (Dimension dimension : ALL) {
            if (keyed.contains(dimension)) {
                values[dimension.ordinal()] = orUnknown(dimension.of(result));
            }
        }
        return new Dimensions(values);
    }

    /** Every dimension the same value (the {@code _other} of a capped label set). */
    public static Dimensions allOf(String value) {
        return of(dimension -> value);
    }

    /** An agent's dimensions where nothing but the agent is known (its continuation events), keyed by the defaults. */
    public static Dimensions ofAgent(String agentId) {
        return ofAgent(agentId, Dimension.DEFAULTS);
    }

    /** An agent's dimensions where nothing but the agent is known: the other keyed ones {@value #UNKNOWN}. */
    public static Dimensions ofAgent(String agentId, Set<Dimension> keyed) {
        return of(dimension -> dimension == Dimension.AGENT ? agentId : keyed.contains(dimension) ? UNKNOWN : null);
    }

    /** The dimensions an aggregate is of. */
    public static Dimensions of(AgentMetrics metrics) {
        return of(dimension -> dimension.of(metrics));
    }

    /** This key's value of a dimension; null when not grouped by. */
    public String value(Dimension dimension) {
        return values[dimension.ordinal()];
    }

    /** This key with one dimension's value replaced. */
    public Dimensions with(Dimension dimension, String value) {
        String[] changed = values.clone();
        changed[dimension.ordinal()] = value;
        return new Dimensions(changed);
    }

    /** Sets every dimension of an aggregate being built to this key's values. */
    public AgentMetrics.Builder applyTo(AgentMetrics.Builder metrics) {
        for (Dimension dimension : ALL) {
            dimension.set(metrics, value(dimension));
        }
        return metrics;
    }

    private static Dimensions of(Function<Dimension, String> valueOf) {
        String[] values = new String[ALL.length];
        for (Dimension dimension : ALL) {
            values[dimension.ordinal()] = valueOf.apply(dimension);
        }
        return new Dimensions(values);
    }

    private static String orUnknown(String value) {
        return value == null || value.isBlank() ? UNKNOWN : value;
    }
}
