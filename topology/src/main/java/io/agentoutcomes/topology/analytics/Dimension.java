package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.topology.attribution.AttributionField;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What the analytics group by, declared once: each dimension's name (as {@code /analytics?by=} takes it), its
 * OpenTelemetry attribute (the label of the domain meters), where an agent's result says it, and its field in
 * {@link AgentMetrics} (the {@code agent-metrics-*} topics). The order here is the order of the parts of a
 * {@link WindowKey}. Adding a dimension: a constant here and its field in the {@code AgentMetrics} schema.
 * <p>
 * Agent, model and provider always key the windows; the attribution dimensions (tenant, team, user, tag) do when
 * {@code analytics.dimensions} lists them, each bounded in distinct values per window ({@link DimensionCap}). Only
 * those with a {@link #metricLabel()} become Prometheus labels: a user or a tag is too many series.
 */
public enum Dimension {
    AGENT("agent", "gen_ai.agent.id", "agentId", true,
            AgentResult::getAgentId, AgentMetrics::getAgentId, AgentMetrics.Builder::setAgentId),
    MODEL("model", "gen_ai.request.model", "model", true,
            result -> execution(result).getModel(), AgentMetrics::getModel, AgentMetrics.Builder::setModel),
    PROVIDER("provider", "gen_ai.provider.name", "provider", true,
            result -> execution(result).getProvider(), AgentMetrics::getProvider, AgentMetrics.Builder::setProvider),
    TENANT("tenant", "tenant", "tenant", true,
            attributed(AttributionField.TENANT_ID), AgentMetrics::getTenant, AgentMetrics.Builder::setTenant),
    TEAM("team", "team", "team", true,
            attributed(AttributionField.TEAM), AgentMetrics::getTeam, AgentMetrics.Builder::setTeam),
    USER("user", "user.id", "user", false,
            attributed(AttributionField.USER_ID), AgentMetrics::getUser, AgentMetrics.Builder::setUser),
    /** The first tag only, so that the groups of any dimension still add up to the totals (docs/analytics.md). */
    TAG("tag", "tag", "tag", false,
            attributed(AttributionField.TAGS), AgentMetrics::getTag, AgentMetrics.Builder::setTag);

    /** What always keys the windows. */
    public static final Set<Dimension> CORE = EnumSet.of(AGENT, MODEL, PROVIDER);
    /** What keys the windows by default: the core and the tenant (a label of the meters, cheap while results name none). */
    public static final Set<Dimension> DEFAULTS = EnumSet.of(AGENT, MODEL, PROVIDER, TENANT);

    private static final ExecutionMetadata NO_EXECUTION = new ExecutionMetadata();

    private final String label;
    private final String attribute;
    private final String fieldName;
    private final boolean metricLabel;
    private final Function<AgentResult, String> ofResult;
    private final Function<AgentMetrics, String> get;
    private final BiConsumer<AgentMetrics.Builder, String> set;

    Dimension(String label, String attribute, String fieldName, boolean metricLabel, Function<AgentResult, String> ofResult,
              Function<AgentMetrics, String> get, BiConsumer<AgentMetrics.Builder, String> set) {
        this.label = label;
        this.attribute = attribute;
        this.fieldName = fieldName;
        this.metricLabel = metricLabel;
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

    /** Whether the domain meters carry the dimension as a label (when it keys the windows): bounded enough for Prometheus. */
    public boolean metricLabel() {
        return metricLabel;
    }

    /** Whether the dimension is one of the result's attribution, bounded per window, rather than always keyed. */
    public boolean attributed() {
        return !CORE.contains(this);
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

    /** The dimensions a setting lists (any case): the core ones must be among them. */
    public static Set<Dimension> parseListed(List<?> labels) {
        Set<Dimension> listed = parse(labels.stream().map(Object::toString).toList());
        List<String> named = labels.stream().map(label -> label.toString().trim().toLowerCase(Locale.ROOT)).toList();
        if (!named.containsAll(CORE.stream().map(Dimension::label).toList())) {
            throw new IllegalArgumentException("agent, model and provider must be listed, was " + labels);
        }
        return listed;
    }

    /** The dimensions named in a list (any case), the core ones always among them. */
    public static Set<Dimension> parse(List<String> labels) {
        Set<Dimension> keyed = EnumSet.copyOf(CORE);
        labels.stream().map(String::trim).filter(label -> !label.isEmpty()).map(Dimension::of).forEach(keyed::add);
        return keyed;
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

    /** A field of the result's attribution as a dimension's value (a list's first: the first tag). */
    private static Function<AgentResult, String> attributed(AttributionField field) {
        return result -> result.getAttribution() == null ? null : field.text(result.getAttribution());
    }
}
