package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.JobStatus;
import io.agentoutcomes.avro.NodeAttempt;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.NodeReplay;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay rules of workflow jobs, as a fold: only {@code success}, or a missing {@code result_type},
 * completes a node and updates its payload results; failures never do. A permanent or compensatable failure fails
 * the job for good; a pending compensation is a flag beside that status. Everything derived (completed ids,
 * cursor, payload results, status) is recomputed from the set of attempts, so a duplicate event (same node, attempt
 * and result type) changes nothing and events in any order give the same state. Pure.
 */
public final class ReplayState {
    private static final Comparator<NodeReplay> STEP_ORDER = Comparator
            .comparing((NodeReplay n) -> n.getStepIndex() == null ? Integer.MAX_VALUE : n.getStepIndex())
            .thenComparing(NodeReplay::getNodeId);

    private ReplayState() {
    }

    /** The state of a job before any event. */
    public static JobReplayState empty(String jobId) {
        return JobReplayState.newBuilder().setJobId(jobId).setStatus(JobStatus.RUNNING).build();
    }

    /** The state after one more event. */
    public static JobReplayState apply(JobReplayState state, NodeFinished event, Instant eventTime) {
        return apply(state, event, eventTime, null);
    }

    /**
     * The state after one more event and the pipeline's decision on it: {@code stop} is the stop reason when the
     * pipeline stopped the attempt (its retries ran out, or the policy forbade one), else null. A stop is kept on the
     * attempt even when the event itself repeats one already folded (a runner that numbers no attempts), so the state
     * stays a function of the set of events and decisions.
     */
    public static JobReplayState apply(JobReplayState state, NodeFinished event, Instant eventTime, StopReason stop) {
        NodeAttempt attempt = NodeAttempt.newBuilder()
                .setAttempt(event.getAttempt())
                .setResultType(event.getResultType() == null ? StepResultType.SUCCESS : event.getResultType())
                .setResultTypeMissing(event.getResultType() == null)
                .setReason(event.getReason())
                .setDurationMs(event.getDurationMs())
                .setTraceSpanId(event.getTraceSpanId())
                .setParentSpanId(event.getParentSpanId())
                .setFinishedAtMs(event.getTimestamp())
                .setStopReason(stop)
                .build();
        Map<String, NodeReplay> nodes = new LinkedHashMap<>();
        state.getNodes().forEach(node -> nodes.put(node.getNodeId(), NodeReplay.newBuilder(node).build()));
        NodeReplay node = nodes.computeIfAbsent(event.getNodeId(), id -> NodeReplay.newBuilder().setNodeId(id).build());
        if (event.getStepIndex() != null) {
            node.setStepIndex(event.getStepIndex());
        }
        List<NodeAttempt> attempts = new ArrayList<>(node.getAttempts());
        int same = sameAttempt(attempts, attempt);
        if (same >= 0) {
            if (stop == null || attempts.get(same).getStopReason() != null) {
                return state;
            }
            attempts.set(same, NodeAttempt.newBuilder(attempts.get(same)).setStopReason(stop).build());
        } else {
            attempts.add(attempt);
        }
        attempts.sort(Comparator.comparingInt(NodeAttempt::getAttempt).thenComparing(a -> a.getResultType().ordinal()));
        node.setAttempts(attempts);
        node.setCompleted(attempts.stream().anyMatch(a -> a.getResultType() == StepResultType.SUCCESS));
        node.setStopReason(node.getCompleted() ? null : attempts.get(attempts.size() - 1).getStopReason());

        Map<String, String> payloads = new LinkedHashMap<>(state.getPayloadResults());
        if (attempt.getResultType() == StepResultType.SUCCESS && event.getPayloadResults() != null
                && isLatestSuccess(attempts, attempt)) {
            payloads.put(event.getNodeId(), event.getPayloadResults());
        }
        long eventMillis = eventTime.toEpochMilli();
        Long updated = state.getUpdatedAt() == null || eventMillis > state.getUpdatedAt() ? eventMillis : state.getUpdatedAt();
        return derive(state.getJobId(), nodes.values(), payloads, updated);
    }

    private static int sameAttempt(List<NodeAttempt> attempts, NodeAttempt attempt) {
        for (int i = 0; i < attempts.size(); i++) {
            if (attempts.get(i).getAttempt() == attempt.getAttempt()
                    && attempts.get(i).getResultType() == attempt.getResultType()) {
                return i;
            }
        }
        return -1;
    }

    /** The payload of the latest successful attempt wins, whatever the arrival order. */
    private static boolean isLatestSuccess(List<NodeAttempt> attempts, NodeAttempt candidate) {
        return attempts.stream().filter(a -> a.getResultType() == StepResultType.SUCCESS)
                .allMatch(a -> a.getAttempt() <= candidate.getAttempt());
    }

    private static JobReplayState derive(String jobId, Collection<NodeReplay> nodeSet,
                                         Map<String, String> payloads, Long updated) {
        List<NodeReplay> nodes = new ArrayList<>(nodeSet);
        nodes.sort(STEP_ORDER);
        List<NodeReplay> completed = nodes.stream().filter(NodeReplay::getCompleted)
                .sorted(Comparator.comparing((NodeReplay n) -> n.getStepIndex() == null ? Integer.MAX_VALUE : n.getStepIndex())
                        .thenComparing(n -> firstSuccessTime(n))
                        .thenComparing(NodeReplay::getNodeId))
                .toList();
        String cursor = completed.stream()
                .filter(n -> n.getStepIndex() != null)
                .max(Comparator.comparingInt(NodeReplay::getStepIndex).thenComparing(NodeReplay::getNodeId))
                .map(NodeReplay::getNodeId)
                .orElse(completed.isEmpty() ? null : completed.get(completed.size() - 1).getNodeId());
        return JobReplayState.newBuilder()
                .setJobId(jobId)
                .setStatus(status(nodes))
                .setCompensationPending(compensationPending(nodes))
                .setCompletedNodeIds(completed.stream().map(NodeReplay::getNodeId).toList())
                .setCursorNode(cursor)
                .setPayloadResults(payloads)
                .setNodes(nodes)
                .setUpdatedAt(updated)
                .build();
    }

    private static long firstSuccessTime(NodeReplay node) {
        return node.getAttempts().stream().filter(a -> a.getResultType() == StepResultType.SUCCESS)
                .mapToLong(a -> a.getFinishedAtMs() == null ? Long.MAX_VALUE : a.getFinishedAtMs()).min().orElse(Long.MAX_VALUE);
    }

    /**
     * A permanent or a compensatable failure ends the job's run (status failed, nothing after it runs), so it is FAILED from
     * the first one on, whatever comes after (a step that failed permanently is not re-executed: a later success of it
     * does not revive the job); so is a node whose latest attempt is a retryable failure the pipeline stopped (a
     * retryable failure that is not retried fails the job; the runner may still retry it, and a success then makes
     * the node complete and the job run again). Else RUNNING. Computed from the set of attempts, so in any order.
     */
    private static JobStatus status(List<NodeReplay> nodes) {
        for (NodeReplay node : nodes) {
            for (NodeAttempt attempt : node.getAttempts()) {
                if (attempt.getResultType() == StepResultType.PERMANENT_FAILURE
                        || attempt.getResultType() == StepResultType.COMPENSATABLE_FAILURE) {
                    return JobStatus.FAILED;
                }
            }
            if (!node.getCompleted()) {
                NodeAttempt latest = node.getAttempts().get(node.getAttempts().size() - 1);
                if (latest.getResultType() == StepResultType.RETRYABLE_FAILURE && latest.getStopReason() != null) {
                    return JobStatus.FAILED;
                }
            }
        }
        return JobStatus.RUNNING;
    }

    /**
     * Whether a compensation is pending: a node not completed whose latest attempt is a compensatable failure (seed
     * 001: not completed "until compensation runs"). Information beside the FAILED status, not a status.
     */
    private static boolean compensationPending(List<NodeReplay> nodes) {
        return nodes.stream().filter(node -> !node.getCompleted()).anyMatch(node -> node.getAttempts()
                .get(node.getAttempts().size() - 1).getResultType() == StepResultType.COMPENSATABLE_FAILURE);
    }
}
