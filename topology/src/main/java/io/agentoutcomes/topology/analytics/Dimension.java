package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What the analytics group by, declared once: each dimension's name (as {@code /analytics?by=} takes it), its
 * OpenTelemetry attribute (the label of the domain meters), where an agent's result says it, and its field in
 * {@link AgentMetrics} (the {@code agent-metrics-*} topics). The order here is the order of the parts of a
 * {@link WindowKey}. Adding a dimension: a constant here and its field in the {@code AgentMetrics} schema.
 */
public enum Dimension {
    AGENT("agent", "gen_ai.agent.id", "agentId",
            AgentResult::getAgentId, AgentMetrics::getAgentId, AgentMetrics.Builder::setAgentId),
    MODEL("model", "gen_ai.request.model", "model",
            result -> execution(result).getModel(), AgentMetrics::getModel, AgentMetrics.Builder::setModel),
    PROVIDER("provider", "gen_ai.provider.name", "provider",
            result -> execution(result).getProvider(), AgentMetrics::getProvider, AgentMetrics.Builder::setProvider);

    private static final ExecutionMetadata NO_EXECUTION = new ExecutionMetadata();

    private final String label;
    private final String attribute;
    private final String fieldName;
    private final Function<AgentResult, String> ofResult;
    private final Function<AgentMetrics, String> get;
    private final BiConsumer<AgentMetrics.Builder, String> set;

    Dimension(String label, String attribute, String fieldName, Function<AgentResult, String> ofResult, Function<AgentMetrics, String> get,
              BiConsumer<AgentMetrics.Builder, String> set) {
        this.label = label;
        this.attribute = attribute;
        this.fieldName = fieldName;
        this.ofResult = ofResult;
        this.get = get;
        this.set = set;
    }

    /** The dimension's name in queries ({@code by=model}) and documents. */
    public String label() {
        return label;
    }

    /** The OpenTelemetry GenAI attribute the dimension is reported as. */
    public String attribute() {
        return attribute;
    }

    /** The dimension's field in {@link AgentMetrics}. */
    public String fieldName() {
        return fieldName;
    }

    /** The dimension's value in an aggregate. */
    public String of(AgentMetrics metrics) {
        return get.apply(metrics);
    }

    /** Sets the dimension's value of an aggregate being built. */
    void set(AgentMetrics.Builder metrics, String value) {
        set.accept(metrics, value);
    }

    /** The dimension's value in an agent's result; null where the result does not say. */
    public String of(AgentResult result) {
        return ofResult.apply(result);
    }

    /** The dimension named {@code label} (any case). */
    public static Dimension of(String label) {
        for (Dimension dimension : values()) {
            if (dimension.label.equals(label.toLowerCase(Locale.ROOT))) {
                return dimension;
            }
        }
        throw new IllegalArgumentException("no dimension " + label);
    }

    /** The names of every dimension, for error messages: {@code agent, model or provider}. */
    public static String labels() {
        StringBuilder text = new StringBuilder();
        Dimension[] all = values();
        for (int i = 0; i < all.length; i++) {
            text.append(i == 0 ? "" : i == all.length - 1 ? " or " : ", ").append(all[i].label);
        }
        return text.toString();
    }

    private static ExecutionMetadata execution(AgentResult result) {
        return result.getExecution() == null ? NO_EXECUTION : result.getExecution();
    }
}
