package io.agentoutcomes.client;

/**
 * The names of the pipeline's topics that producers and orchestrators use, with the pipeline's {@code topic.prefix}
 * (empty by default). The same names as the pipeline's own topic registry; the client does not depend on it.
 */
public record PipelineTopics(String prefix) {
    public static final String AGENT_RESULTS = "agent-results";
    public static final String AGENT_RESULTS_JSON = "agent-results-json";
    public static final String NODE_FINISHED = "node-finished";
    public static final String NODE_FINISHED_JSON = "node-finished-json";
    public static final String CONTINUATION_EVENTS = "continuation-events";
    public static final String CONTINUATION_EVENTS_JSON = "continuation-events-json";
    public static final String RETRY_READY = "retry-ready";
    public static final String DEAD_LETTER = "dead-letter";
    public static final String OUTCOMES_CLASSIFIED = "outcomes-classified";

    /** The topics without a prefix. */
    public static final PipelineTopics DEFAULT = new PipelineTopics("");

    public PipelineTopics {
        prefix = prefix == null ? "" : prefix;
    }

    public String agentResults() {
        return prefix + AGENT_RESULTS;
    }

    public String agentResultsJson() {
        return prefix + AGENT_RESULTS_JSON;
    }

    public String nodeFinished() {
        return prefix + NODE_FINISHED;
    }

    public String nodeFinishedJson() {
        return prefix + NODE_FINISHED_JSON;
    }

    public String continuationEvents() {
        return prefix + CONTINUATION_EVENTS;
    }

    public String continuationEventsJson() {
        return prefix + CONTINUATION_EVENTS_JSON;
    }

    public String retryReady() {
        return prefix + RETRY_READY;
    }

    public String deadLetter() {
        return prefix + DEAD_LETTER;
    }

    public String outcomesClassified() {
        return prefix + OUTCOMES_CLASSIFIED;
    }
}
