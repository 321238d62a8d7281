package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.ConfidenceCheck;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Instant;
import java.util.Random;

/**
 * What a completion is, as a pure function: the classified outcome of an agent result or a workflow node's event,
 * given its task's state before it; what the classifier, the confidence check, the backoff and the tiers make of it.
 * No Kafka here: the classifying processor, {@code agent-outcomes explain} and the benchmarks call the same functions.
 * <p>
 * Per record they build the outcome and nothing more: the input is referenced, not copied, except where a final
 * outcome records its retry count in the envelope (a copy of the envelope's top level and its execution metadata).
 */
public final class Classification {
    /** How much of a failure's message an outcome repeats in its reason. */
    static final int MAX_REASON_CHARS = 1000;

    private Classification() {
    }

    /** The classified outcome of an agent result, given its task's state before it; no budget stops its retry. */
    public static ClassifiedOutcome classify(AgentResult result, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
        return classify(result, before, policy, now, random, BudgetGuard.NONE, now.toEpochMilli());
    }

    /**
     * As above, where a retry of a failure stops instead when {@code budgets} says a budget its spend counts against is
     * exhausted in the period of {@code eventTime} (the result's record timestamp, which decided its budget period).
     */
    public static ClassifiedOutcome classify(AgentResult result, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random, BudgetGuard budgets, long eventTime) {
        ExecutionMetadata execution = result.getExecution();
        AttemptCount count = AttemptCount.of(before, result.getAttempt(), execution == null ? null : execution.getRetryCount());
        int attempt = count.attempt();
        Classifier.Verdict classified = Classifier.keptStopped(policy.classifier().classify(result,
                count.consecutiveBefore(), count.totalBefore()), before.getStopReason());
        ConfidencePolicy.Check confidence = null;
        if (classified.resultType() == ResultType.SUCCESS && result.getConfidence() != null) {
            int maxRetries = policy.classifier().policyFor(result.getAgentId()).maxRetries();
            confidence = policy.confidence().check(result.getConfidence(), attempt, maxRetries).orElse(null);
            if (confidence != null && confidence.action() == ConfidenceAction.RETRY) {
                // A success below the confidence threshold is retried like a failure, on the same attempts, yet is not a failure.
                classified = classified.withDecision(new PolicyDecision(ErrorHandling.RETRY, confidence.rule(),
                        confidence.reason(), count.consecutiveBefore(), count.totalBefore(), maxRetries, null));
            }
        }
        classified = ContextWindowFallback.applied(classified, result, policy, before.getStopReason() != null);
        classified = budgetStopped(classified, result, budgets, eventTime);
        Classifier.Verdict verdict = RetryTiming.timed(classified, attempt, result.getRateLimit(), policy, now, random);
        Integer retryCount = verdict.isFinal() ? attempt : null;
        ClassifiedOutcome outcome = outcome(result.getTaskId(), result.getResultId(), attempt, verdict, now);
        outcome.setAgentId(result.getAgentId());
        outcome.setJobId(result.getJobId());
        outcome.setNodeId(result.getNodeId());
        outcome.setRetryCount(retryCount);
        outcome.setAgentResult(retryCount == null ? result : withRetryCount(result, retryCount));
        if (confidence != null) {
            outcome.setConfidenceCheck(new ConfidenceCheck(confidence.confidence(), confidence.threshold(),
                    confidence.action(), confidence.rule(), confidence.reason()));
        }
        if (outcome.getDecision() != null && result.getOutcome() instanceof Failure failure) {
            // The decision names the tool that failed, as the failure's error context does.
            outcome.getDecision().setToolName(failure.getError().getToolName());
        }
        return outcome;
    }

    /**
     * A failure's retry turned into a stop ({@code budget_exceeded}) by an exhausted budget: spending more on the task
     * is what the budget forbids. Only failures: a success retried for its confidence is not dead-lettered for it.
     */
    static Classifier.Verdict budgetStopped(Classifier.Verdict verdict, AgentResult result, BudgetGuard budgets,
                                            long eventTime) {
        PolicyDecision decision = verdict.decision();
        if (decision == null || decision.handling() != ErrorHandling.RETRY || verdict.resultType() != ResultType.RETRYABLE_FAILURE) {
            return verdict;
        }
        // Asked only for a retry of a failure: the budgets' status is not read for every result.
        BudgetGuard.Stop stop = budgets.stop(result, eventTime).orElse(null);
        if (stop == null) {
            return verdict;
        }
        return verdict.withDecision(decision.stopped(stop.rule(),
                ErrorPolicy.notRetriedText(verdict.category(), stop.rule() + ", " + stop.why()), StopReason.BUDGET_EXCEEDED));
    }

    /** The classified outcome of a workflow node's completion (task {@code jobId/nodeId}), given its task's state. */
    public static ClassifiedOutcome classify(NodeFinished event, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
        return classify(event, "explain", before, policy, now, random);
    }

    /** As above, for the event read at {@code position} (topic/partition/offset), which identifies it if nothing else does. */
    public static ClassifiedOutcome classify(NodeFinished event, String position, TaskAttempts before, RetryPolicy policy,
                                             Instant now, Random random) {
        return classifyNode(event, NodeIds.resultId(event, position), before, policy, now, random);
    }

    /** As above, for an event whose idempotency key ({@link NodeIds#resultId}) is already known. */
    static ClassifiedOutcome classifyNode(NodeFinished event, String resultId, TaskAttempts before, RetryPolicy policy,
                                         Instant now, Random random) {
        AttemptCount count = AttemptCount.of(before, event.getAttempt(), null);
        int attempt = count.attempt();
        Classifier.Verdict verdict = RetryTiming.timed(Classifier.keptStopped(policy.classifier().classify(event,
                count.consecutiveBefore(), count.totalBefore()), before.getStopReason()), attempt, null, policy, now, random);
        ClassifiedOutcome outcome = outcome(NodeIds.taskId(event), resultId, attempt, verdict, now);
        outcome.setJobId(event.getJobId());
        outcome.setNodeId(event.getNodeId());
        outcome.setRetryCount(verdict.isFinal() ? attempt : null);
        outcome.setNodeFinished(event);
        return outcome;
    }

    /**
     * A reason as an outcome carries it: an error message is already in the envelope the outcome carries, so a copy
     * of a long one is cut, and an outcome stays within a few hundred bytes of its input.
     */
    static String cut(String reason) {
        return reason == null || reason.length() <= MAX_REASON_CHARS ? reason
                : reason.substring(0, MAX_REASON_CHARS) + "… (cut, " + reason.length() + " characters)";
    }

    /**
     * The envelope as a final outcome carries it: its retry count in the execution metadata. Only the top level and
     * the execution metadata are new objects; every other field is the input's own (Avro's builder would deep-copy
     * the whole envelope).
     */
    static AgentResult withRetryCount(AgentResult result, int retryCount) {
        AgentResult copy = new AgentResult();
        int fields = AgentResult.getClassSchema().getFields().size();
        for (int i = 0; i < fields; i++) {
            copy.put(i, result.get(i));
        }
        ExecutionMetadata from = result.getExecution();
        ExecutionMetadata execution = new ExecutionMetadata();
        if (from != null) {
            int executionFields = ExecutionMetadata.getClassSchema().getFields().size();
            for (int i = 0; i < executionFields; i++) {
                execution.put(i, from.get(i));
            }
        }
        execution.setRetryCount(retryCount);
        copy.setExecution(execution);
        return copy;
    }

    /** The outcome's own fields; the caller adds what its kind of completion carries. */
    private static ClassifiedOutcome outcome(String taskId, String resultId, int attempt, Classifier.Verdict verdict,
                                             Instant now) {
        ClassifiedOutcome outcome = new ClassifiedOutcome();
        outcome.setTaskId(taskId);
        outcome.setResultId(resultId);
        outcome.setAttempt(attempt);
        outcome.setResultType(verdict.resultType());
        outcome.setErrorCode(verdict.code() == null ? null : verdict.code().value());
        outcome.setErrorCategory(verdict.category());
        outcome.setReason(cut(verdict.reason()));
        outcome.setClassifiedAt(now.toEpochMilli());
        PolicyDecision decision = verdict.decision();
        if (decision != null) {
            Decision avro = new Decision();
            avro.setHandling(decision.handling());
            avro.setRule(decision.rule());
            avro.setReason(decision.reason());
            avro.setConsecutiveFailures(decision.consecutiveFailures());
            avro.setTotalFailures(decision.totalFailures());
            avro.setMaxRetries(decision.maxRetries());
            avro.setStopReason(decision.stopReason());
            avro.setAction(decision.action());
            outcome.setDecision(avro);
            if (decision.delay() != null) {
                outcome.setRetryDelayMs(decision.delay().duration().toMillis());
                outcome.setRetryDelayReason(decision.delay().why());
            }
        }
        return outcome;
    }
}
