package io.agentoutcomes.client;

import io.agentoutcomes.avro.HeaderNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON record for one of the pipeline's JSON topics, in any input dialect (docs/ingestion.md): its kind (which topic),
 * its key and the identity headers that fill in what the JSON itself lacks.
 */
public final class JsonRecord {
    /** Which JSON topic a record goes to. */
    public enum Kind { AGENT_RESULT, NODE_FINISHED, CONTINUATION_EVENT }

    private final Kind kind;
    private final String key;
    private final String json;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private JsonRecord(Kind kind, String key, String json) {
        this.kind = Objects.requireNonNull(kind);
        this.key = key;
        this.json = Objects.requireNonNull(json, "json");
    }

    /** An agent result keyed by its task id, as the pipeline keeps a task's attempts on one partition. */
    public static JsonRecord agentResult(String agentId, String taskId, String json) {
        return new JsonRecord(Kind.AGENT_RESULT, taskId, json).header(HeaderNames.AGENT_ID, agentId)
                .header(HeaderNames.TASK_ID, taskId);
    }

    /** A workflow node's {@code node_finished} event keyed by its job id. */
    public static JsonRecord nodeFinished(String jobId, String nodeId, String json) {
        return new JsonRecord(Kind.NODE_FINISHED, jobId, json).header(HeaderNames.JOB_ID, jobId)
                .header(HeaderNames.NODE_ID, nodeId);
    }

    /** A loop's {@code ContinuationEvaluated} event keyed by its agent id. */
    public static JsonRecord continuationEvent(String agentId, String json) {
        return new JsonRecord(Kind.CONTINUATION_EVENT, agentId, json).header(HeaderNames.AGENT_ID, agentId);
    }

    /** The result id, the pipeline's idempotency key: the same id sent twice is processed once. */
    public JsonRecord resultId(String resultId) {
        return header(HeaderNames.RESULT_ID, resultId);
    }

    public JsonRecord attempt(int attempt) {
        return header(HeaderNames.ATTEMPT, Integer.toString(attempt));
    }

    public JsonRecord job(String jobId, String nodeId) {
        return header(HeaderNames.JOB_ID, jobId).header(HeaderNames.NODE_ID, nodeId);
    }

    /** {@code vat-envelope}, {@code flatagents} or {@code review-agent}; without it the pipeline goes by the shape. */
    public JsonRecord dialect(String dialect) {
        return header(HeaderNames.DIALECT, dialect);
    }

    /** Any other header; a null value is not sent. */
    public JsonRecord header(String name, String value) {
        if (value == null) {
            headers.remove(name);
        } else {
            headers.put(name, value);
        }
        return this;
    }

    public Kind kind() {
        return kind;
    }

    public String key() {
        return key;
    }

    public String json() {
        return json;
    }

    public Map<String, String> headers() {
        return Map.copyOf(headers);
    }
}
