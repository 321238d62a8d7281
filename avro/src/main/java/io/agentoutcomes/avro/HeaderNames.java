package io.agentoutcomes.avro;

/**
 * The record headers of the contract (docs/topics.md#headers), named once for the publisher, the pipeline and its
 * consumers. Values are UTF-8 text. Beside these, every input header (W3C {@code traceparent} and {@code tracestate}
 * among them) is carried to what the pipeline writes; which of these each output topic carries: docs/topics.md.
 */
public final class HeaderNames {
    /** Identity a record's value may lack: the pipeline reads it from these first, then from a CloudEvent, then the key. */
    public static final String AGENT_ID = "agent-id";
    public static final String TASK_ID = "task-id";
    public static final String JOB_ID = "job-id";
    public static final String NODE_ID = "node-id";
    /** In: the attempt a result is of. On {@code retry-ready}: the attempt to run next; on {@code dead-letter}: the one that stopped. */
    public static final String ATTEMPT = "attempt";
    public static final String RESULT_ID = "result-id";
    /**
     * Attribution of a result's spend (docs/ingestion.md#attribution): filling what the value does not say; {@code tags}
     * is comma-separated.
     */
    public static final String TENANT_ID = "tenant-id";
    public static final String TEAM = "team";
    public static final String USER_ID = "user-id";
    public static final String TAGS = "tags";
    /** {@code vat-envelope}, {@code flatagents} or {@code review-agent}: a JSON record's dialect, skipping shape detection. */
    public static final String DIALECT = "dialect";
    /** On {@code retry-ready}: when the retry was due, ISO-8601 UTC. */
    public static final String DUE_AT = "due-at";
    /**
     * On a record whose timestamp was more than {@code input.max.clock.skew.ms} ahead of the wall clock when the pipeline
     * read it: the producer's timestamp, ISO-8601 UTC. The record (and all it leads to) is stamped with the time it was
     * read instead.
     */
    public static final String PRODUCER_TIMESTAMP = "producer-timestamp";
    /**
     * Provenance, written once where it is used (a {@code dead-letter}; a JSON input's canonical record on
     * {@code agent-results}): where the record it was written for was read, its topic, partition and offset. Not on
     * outcomes and retries since 0.3.0.
     */
    public static final String ORIGIN_TOPIC = "origin-topic";
    public static final String ORIGIN_PARTITION = "origin-partition";
    public static final String ORIGIN_OFFSET = "origin-offset";
    /**
     * On a {@code retry-ready} record a redrive re-issued: the redrive's id. An orchestrator copies it onto the re-run's
     * result, and the classifier then starts the stopped task afresh (a new attempt budget), once per redrive id.
     */
    public static final String REDRIVE_ID = "agent-outcomes-redrive-id";
    /** On a {@code retry-ready} record a redrive re-issued: the dead letter it came from, {@code <topic>/<partition>/<offset>}. */
    public static final String REDRIVEN_FROM = "agent-outcomes-redriven-from";

    private HeaderNames() {
    }
}
