package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.NodeFinished;

/** How a workflow node's completion is identified: its task, and its idempotency key. */
public final class NodeIds {
    private NodeIds() {
    }

    /** A workflow node's task id: {@code jobId/nodeId}. */
    public static String taskId(NodeFinished event) {
        return event.getJobId() + "/" + event.getNodeId();
    }

    /**
     * A node event's idempotency key: job, node, attempt, result type, and the runner's finish time, so a redelivered
     * event is recognised while distinct events are not merged when a runner leaves {@code attempt} at its default.
     * An event without a finish time is identified by where it was read ({@code position}): reprocessing the same
     * record merges, a re-send of it is a new event.
     */
    public static String resultId(NodeFinished event, String position) {
        return taskId(event) + "/" + event.getAttempt() + "/"
                + (event.getResultType() == null ? "SUCCESS" : event.getResultType().name()) + "/"
                + (event.getTimestamp() != null ? String.valueOf(event.getTimestamp()) : "@" + position);
    }
}
