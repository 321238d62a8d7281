package io.agentoutcomes.client;

import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Builds the {@code node_finished} event of one step of a workflow job, then its result type: one of the four, or
 * none ({@link #withoutResultType}, which replay reads as success, as events from before the field).
 */
public final class NodeEventBuilder {
    private final NodeFinished.Builder event = NodeFinished.newBuilder();

    private NodeEventBuilder(String jobId, String nodeId) {
        event.setJobId(Objects.requireNonNull(jobId, "jobId")).setNodeId(Objects.requireNonNull(nodeId, "nodeId"));
    }

    public static NodeEventBuilder of(String jobId, String nodeId) {
        return new NodeEventBuilder(jobId, nodeId);
    }

    /** The step's position in the job; replay's cursor is the completed node of highest step index. */
    public NodeEventBuilder stepIndex(int index) {
        event.setStepIndex(index);
        return this;
    }

    public NodeEventBuilder attempt(int attempt) {
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must not be negative: " + attempt);
        }
        event.setAttempt(attempt);
        return this;
    }

    public NodeEventBuilder duration(Duration duration) {
        event.setDurationMs(duration.toMillis());
        return this;
    }

    public NodeEventBuilder finishedAt(Instant time) {
        event.setTimestamp(time.toEpochMilli());
        return this;
    }

    public NodeEventBuilder spans(String traceSpanId, String parentSpanId) {
        event.setTraceSpanId(traceSpanId).setParentSpanId(parentSpanId);
        return this;
    }

    /** The step's payload results and the runner's state after it, as JSON text. */
    public NodeEventBuilder payload(String payloadResultsJson, String stateJson) {
        event.setPayloadResults(payloadResultsJson).setState(stateJson);
        return this;
    }

    public NodeFinished success() {
        return event.setResultType(StepResultType.SUCCESS).build();
    }

    public NodeFinished retryableFailure(String reason) {
        return event.setResultType(StepResultType.RETRYABLE_FAILURE).setReason(reason).build();
    }

    public NodeFinished permanentFailure(String reason) {
        return event.setResultType(StepResultType.PERMANENT_FAILURE).setReason(reason).build();
    }

    public NodeFinished compensatableFailure(String reason) {
        return event.setResultType(StepResultType.COMPENSATABLE_FAILURE).setReason(reason).build();
    }

    /** An event as runners wrote it before {@code result_type} existed. */
    public NodeFinished withoutResultType() {
        return event.setResultType(null).build();
    }
}
