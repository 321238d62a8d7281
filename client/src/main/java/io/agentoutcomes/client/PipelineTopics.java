package io.agentoutcomes.client;

import io.agentoutcomes.avro.TopicNames;

/**
 * The names of the pipeline's topics that producers and orchestrators use, with the pipeline's {@code topic.prefix}
 * (empty by default): the contract's {@link TopicNames}, as the pipeline's own topic registry names them.
 */
public record PipelineTopics(String prefix) {
    /** The topics without a prefix. */
    public static final PipelineTopics DEFAULT = new PipelineTopics("");

    public PipelineTopics {
        prefix = prefix == null ? "" : prefix;
    }

    public String agentResults() {
        return prefix + TopicNames.AGENT_RESULTS;
    }

    public String agentResultsJson() {
        return prefix + TopicNames.AGENT_RESULTS_JSON;
    }

    public String nodeFinished() {
        return prefix + TopicNames.NODE_FINISHED;
    }

    public String nodeFinishedJson() {
        return prefix + TopicNames.NODE_FINISHED_JSON;
    }

    public String continuationEvents() {
        return prefix + TopicNames.CONTINUATION_EVENTS;
    }

    public String continuationEventsJson() {
        return prefix + TopicNames.CONTINUATION_EVENTS_JSON;
    }

    public String retryReady() {
        return prefix + TopicNames.RETRY_READY;
    }

    public String deadLetter() {
        return prefix + TopicNames.DEAD_LETTER;
    }

    public String outcomesClassified() {
        return prefix + TopicNames.OUTCOMES_CLASSIFIED;
    }

    public String providerHealth() {
        return prefix + TopicNames.PROVIDER_HEALTH;
    }
}
