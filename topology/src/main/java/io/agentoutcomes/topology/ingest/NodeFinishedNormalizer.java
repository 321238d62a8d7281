package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.UNKNOWN_DIALECT;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import java.util.Locale;

/**
 * A workflow node's {@code node_finished} event as JSON: flat ({@code {job_id, node_id, payload_results, ...}}) or wrapped
 * as {@code {type: "node_finished", job_id, payload: {...}}}. The job id comes from the event, else the
 * {@code job-id} header, else the record key; the node id from the event, else the {@code node-id} header.
 * A missing {@code result_type} stays null (replay reads it as success: events from before the field).
 */
public final class NodeFinishedNormalizer {
    public static final String EVENT_TYPE = "node_finished";

    private NodeFinishedNormalizer() {
    }

    /** The canonical event for a JSON value (or a CloudEvent wrapping one) with its record context. */
    public static NodeFinished normalize(byte[] json, RecordContext context) {
        JsonInput input = CloudEvents.read(json, context);
        return normalize(input.root(), input.context());
    }

    /** The canonical event for a parsed JSON object with its record context. */
    static NodeFinished normalize(JsonNode json, RecordContext context) {
        JsonFields root = new JsonFields(json, "");
        JsonFields payload = root;
        if (root.has("payload")) {
            String type = root.text("type");
            if (type != null && !type.equals(EVENT_TYPE)) {
                throw new InvalidInputException(UNKNOWN_DIALECT, "event type is '" + type + "': expected " + EVENT_TYPE);
            }
            payload = root.object("payload");
        }
        String jobId = first(payload.text("job_id"), root.text("job_id"));
        String nodeId = first(payload.text("node_id"), root.text("node_id"));
        Integer attempt = payload.smallCount("attempt");
        return NodeFinished.newBuilder()
                .setJobId(context.fieldHeaderOrKey(jobId, HeaderNames.JOB_ID, context.cloudEventSubject(), "subject", "job_id"))
                .setNodeId(context.fieldOrHeader(nodeId, HeaderNames.NODE_ID, "node_id"))
                .setPayloadResults(payload.jsonText("payload_results"))
                .setTraceSpanId(payload.text("trace_span_id"))
                .setParentSpanId(payload.text("parent_span_id"))
                .setStepIndex(payload.smallCount("step_index"))
                .setDurationMs(payload.count("duration_ms"))
                .setState(payload.jsonText("state"))
                .setAttempt(context.attempt(attempt))
                .setTimestamp(JsonFields.millis(first(payload.isoTimestamp("timestamp"), root.isoTimestamp("timestamp"))))
                .setResultType(resultType(payload))
                .setReason(payload.text("reason"))
                .build();
    }

    private static StepResultType resultType(JsonFields payload) {
        String type = payload.text("result_type");
        if (type == null) {
            return null;
        }
        try {
            return StepResultType.valueOf(type.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(WRONG_TYPE, payload.at("result_type") + " is '" + type
                    + "': expected success, retryable_failure, permanent_failure or compensatable_failure");
        }
    }

    private static <T> T first(T a, T b) {
        return a != null ? a : b;
    }
}
