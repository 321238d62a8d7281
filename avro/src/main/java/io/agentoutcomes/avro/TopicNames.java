package io.agentoutcomes.avro;

/**
 * The topics of the contract (docs/topics.md), named once for the publisher, the pipeline and its consumers: base
 * names, to which a deployment's {@code topic.prefix} is prepended.
 */
public final class TopicNames {
    public static final String AGENT_RESULTS = "agent-results";
    public static final String AGENT_RESULTS_JSON = "agent-results-json";
    /**
     * Where the OpenTelemetry Collector's Kafka exporter writes spans by default: the default of the setting
     * {@code input.otlp.topic}, which names it in full (the topic prefix is not added: the Collector names it).
     */
    public static final String OTLP_SPANS = "otlp_spans";
    public static final String NODE_FINISHED = "node-finished";
    public static final String NODE_FINISHED_JSON = "node-finished-json";
    public static final String CONTINUATION_EVENTS = "continuation-events";
    public static final String CONTINUATION_EVENTS_JSON = "continuation-events-json";
    public static final String REJECTED_INPUT = "rejected-input";
    public static final String OUTCOMES_CLASSIFIED = "outcomes-classified";
    /** A delay topic is this and its tier's name: {@code retry-delay-5s}, {@code retry-delay-long}. */
    public static final String RETRY_DELAY_PREFIX = "retry-delay-";
    public static final String RETRY_READY = "retry-ready";
    public static final String DEAD_LETTER = "dead-letter";
    /** One record per dead letter a redrive re-issued (or found superseded), keyed by the dead letter's identity. */
    public static final String REDRIVES = "redrives";
    public static final String COMPENSATIONS = "compensations";
    public static final String VERIFICATIONS = "verifications";
    public static final String REPLAY_STATE = "replay-state";
    public static final String AGENT_METRICS_1M = "agent-metrics-1m";
    public static final String AGENT_METRICS_1H = "agent-metrics-1h";
    public static final String PROVIDER_HEALTH = "provider-health";
    /** A budget's threshold crossed, once per budget, value, period and threshold. */
    public static final String BUDGET_ALERTS = "budget-alerts";
    /** Budgets exhausted in their period (compacted), read by classification for budget-aware retries. */
    public static final String BUDGET_STATUS = "budget-status";

    private TopicNames() {
    }

    /** The delay topic of a tier: {@code retry-delay-<tier>}. */
    public static String retryDelay(String tier) {
        return RETRY_DELAY_PREFIX + tier;
    }
}
