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
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The pipeline's decisions as pure functions: what a completion is ({@link #classify}), what its task remembers
 * after it ({@link #next}) and what an orchestrator is told to re-run ({@link #retryRequest}). No Kafka here: the
 * classifying processor, {@code agent-outcomes explain} and the benchmarks call the same functions.
 * <p>
 * Per record they build the outcome and nothing more: the input is referenced, not copied, except where a final
 * outcome records its retry count in the envelope (a copy of the envelope's top level and its execution metadata).
 */
public final class Decisions {
    /** How many recent result ids a task remembers for de-duplication. */
    static final int RECENT_RESULT_IDS = 32;
    /** The rule of a retry stopped because its delay is longer than the policy allows. */
    public static final String DELAY_OUT_OF_RANGE = "delay-out-of-range";
    /** The rule of a retry handed back at once because a daily window is exhausted. */
    public static final String DAILY_LIMIT_SWITCH = "policy.daily-limit=switch";
    /** How much of a failure's message an outcome repeats in its reason. */
    static final int MAX_REASON_CHARS = 1000;

    private Decisions() {
    }

    /**
     * The classified outcome of an agent result, given its task's state before it: what the classifier, the backoff
     * and the tiers make of it.
     */
    public static ClassifiedOutcome classify(AgentResult result, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
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
                // Seed 000's "retry if confidence < 0.8": a retry like a failure's, on the same attempts, yet not a failure.
                classified = new Classifier.Verdict(classified.resultType(), null, null, classified.reason(),
                        new PolicyDecision(ErrorHandling.RETRY, confidence.rule(), confidence.reason(),
                                count.consecutiveBefore(), count.totalBefore(), maxRetries, null));
            }
        }
        Scheduled scheduled = schedule(classified, attempt, result.getRateLimit(), policy, now, random);
        Integer retryCount = scheduled.verdict().isFinal() ? attempt : null;
        ClassifiedOutcome outcome = outcome(result.getTaskId(), result.getResultId(), attempt, scheduled, now);
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
            // Seed 002's ErrorContext: the decision names the tool that failed, as its evaluation context does.
            outcome.getDecision().setToolName(failure.getError().getToolName());
        }
        return outcome;
    }

    /** The classified outcome of a workflow node's completion (task {@code jobId/nodeId}), given its task's state. */
    public static ClassifiedOutcome classify(NodeFinished event, TaskAttempts before, RetryPolicy policy, Instant now,
                                             Random random) {
        return classify(event, "explain", before, policy, now, random);
    }

    /** As above, for the event read at {@code position} (topic/partition/offset), which identifies it if nothing else does. */
    public static ClassifiedOutcome classify(NodeFinished event, String position, TaskAttempts before, RetryPolicy policy,
                                             Instant now, Random random) {
        return classifyNode(event, nodeResultId(event, position), before, policy, now, random);
    }

    /** As above, for an event whose idempotency key ({@link #nodeResultId}) is already known. */
    static ClassifiedOutcome classifyNode(NodeFinished event, String resultId, TaskAttempts before, RetryPolicy policy,
                                         Instant now, Random random) {
        AttemptCount count = AttemptCount.of(before, event.getAttempt(), null);
        int attempt = count.attempt();
        Scheduled scheduled = schedule(Classifier.keptStopped(policy.classifier().classify(event, count.consecutiveBefore(),
                count.totalBefore()), before.getStopReason()), attempt, null, policy, now, random);
        ClassifiedOutcome outcome = outcome(nodeTaskId(event), resultId, attempt, scheduled, now);
        outcome.setJobId(event.getJobId());
        outcome.setNodeId(event.getNodeId());
        outcome.setRetryCount(scheduled.verdict().isFinal() ? attempt : null);
        outcome.setNodeFinished(event);
        return outcome;
    }

    /** A workflow node's task id: {@code jobId/nodeId}. */
    public static String nodeTaskId(NodeFinished event) {
        return event.getJobId() + "/" + event.getNodeId();
    }

    /**
     * A node event's idempotency key: job, node, attempt, result type, and the runner's finish time, so a redelivered
     * event is recognised while distinct events are not merged when a runner leaves {@code attempt} at its default.
     * An event without a finish time is identified by where it was read ({@code position}): reprocessing the same
     * record merges, a re-send of it is a new event.
     */
    public static String nodeResultId(NodeFinished event, String position) {
        return nodeTaskId(event) + "/" + event.getAttempt() + "/"
                + (event.getResultType() == null ? "SUCCESS" : event.getResultType().name()) + "/"
                + (event.getTimestamp() != null ? String.valueOf(event.getTimestamp()) : "@" + position);
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
     * The task's state after an outcome, the result id remembered: a stop is kept with its counts; a success or a skip
     * starts the next run afresh (consecutive failures and attempts, not total failures). An ignored failure does not:
     * seed 002's {@code countConsecutiveFailures} counts every trailing step with errors, whatever the policy did with
     * it, so the next completion is the next attempt and its failure counts the ignored one.
     */
    public static TaskAttempts next(TaskAttempts state, ClassifiedOutcome outcome) {
        List<String> seen = state.getRecentResultIds();
        int keep = Math.min(seen.size(), RECENT_RESULT_IDS - 1);
        List<String> recent = new ArrayList<>(keep + 1);
        recent.addAll(seen.subList(seen.size() - keep, seen.size()));
        recent.add(outcome.getResultId());
        if (outcome.getResultType() == ResultType.IN_PROGRESS) {
            return new TaskAttempts(state.getAttempts(), state.getConsecutiveFailures(), state.getTotalFailures(), null,
                    recent);
        }
        Decision decision = outcome.getDecision();
        if (decision != null && decision.getHandling() == ErrorHandling.STOP) {
            // A stopped task stays stopped: its counts go on and a later failure stops again with the same reason.
            return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), decision.getStopReason(), recent);
        }
        if (decision != null && decision.getHandling() == ErrorHandling.IGNORE) {
            // Ignored, yet a failure: it stays among the trailing failures and the attempts (seed 002).
            return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(),
                    decision.getTotalFailures(), null, recent);
        }
        if (outcome.getRetryCount() != null) {
            // Over (a success, a skip): the next run starts afresh, but total failures are the task's.
            return new TaskAttempts(0, 0, decision == null ? state.getTotalFailures() : decision.getTotalFailures(), null,
                    recent);
        }
        return new TaskAttempts(outcome.getAttempt() + 1, decision.getConsecutiveFailures(), decision.getTotalFailures(),
                null, recent);
    }

    /** What an orchestrator needs to re-run the task of a retried outcome. */
    public static RetryRequest retryRequest(ClassifiedOutcome outcome, RetryTiers tiers) {
        long delay = outcome.getRetryDelayMs();
        Decision decision = outcome.getDecision();
        Optional<DailyWindow> daily = decision.getAction() == RetryAction.SWITCH_PROVIDER && outcome.getAgentResult() != null
                ? DailyWindow.exhausted(outcome.getAgentResult().getRateLimit(), Instant.ofEpochMilli(outcome.getClassifiedAt())) : Optional.empty();
        RetryRequest retry = new RetryRequest();
        retry.setTaskId(outcome.getTaskId());
        retry.setResultId(outcome.getResultId());
        retry.setAgentId(outcome.getAgentId());
        retry.setJobId(outcome.getJobId());
        retry.setNodeId(outcome.getNodeId());
        retry.setNextAttempt(outcome.getAttempt() + 1);
        retry.setErrorCode(isLowConfidenceRetry(outcome) ? ConfidencePolicy.LOW_CONFIDENCE : outcome.getErrorCode());
        retry.setDelayMs(delay);
        retry.setDelayReason(outcome.getRetryDelayReason());
        retry.setTier(tiers.tierFor(Duration.ofMillis(delay)).name());
        retry.setFailedAt(outcome.getClassifiedAt());
        retry.setDueAt(outcome.getClassifiedAt() + delay);
        retry.setReason(decision.getReason());
        retry.setAction(decision.getAction());
        retry.setExhaustedWindow(daily.map(DailyWindow::name).orElse(null));
        retry.setWindowResetAt(daily.map(DailyWindow::resetAt).map(Instant::toEpochMilli).orElse(null));
        retry.setAgentResult(outcome.getAgentResult());
        retry.setNodeFinished(outcome.getNodeFinished());
        return retry;
    }

    /** Whether an outcome is retried (a retryable failure, or a success retried for its confidence). */
    public static boolean isRetry(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.RETRY;
    }

    /** Whether an outcome stops its task (it is dead-lettered unless compensatable). */
    public static boolean isStop(ClassifiedOutcome outcome) {
        return outcome.getDecision() != null && outcome.getDecision().getHandling() == ErrorHandling.STOP;
    }

    /**
     * Whether an outcome goes to {@code dead-letter}: a stop that is not a compensatable failure (those go to
     * {@code compensations}). {@link OutcomeRouter} routes by it and the analytics count by it.
     */
    public static boolean isDeadLetter(ClassifiedOutcome outcome) {
        return isStop(outcome) && outcome.getResultType() != ResultType.COMPENSATABLE_FAILURE;
    }

    private static boolean isLowConfidenceRetry(ClassifiedOutcome outcome) {
        return outcome.getConfidenceCheck() != null && outcome.getConfidenceCheck().getAction() == ConfidenceAction.RETRY;
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

    /** A verdict and, for a retry, its delay and how it is to be run. */
    private record Scheduled(Classifier.Verdict verdict, Backoff.Delay delay, RetryAction action) {
        Scheduled(Classifier.Verdict verdict) {
            this(verdict, null, null);
        }
    }

    /**
     * The delay of a retry; a retry that would wait longer than the policy's maximum (a provider asking for
     * centuries, say) is a stop instead, so no due time can overflow or lie beyond what the scheduler should hold.
     */
    private static Scheduled schedule(Classifier.Verdict verdict, int attempt, RateLimitState rateLimit,
                                      RetryPolicy policy, Instant now, Random random) {
        PolicyDecision decision = verdict.decision();
        if (decision == null || decision.handling() != ErrorHandling.RETRY) {
            return new Scheduled(verdict);
        }
        Optional<DailyWindow> daily = policy.dailyLimit() == DailyLimit.SWITCH ? DailyWindow.exhausted(rateLimit, now)
                : Optional.empty();
        if (daily.isPresent()) {
            PolicyDecision switched = new PolicyDecision(ErrorHandling.RETRY, DAILY_LIMIT_SWITCH, decision.reason(),
                    decision.consecutiveFailures(), decision.totalFailures(), decision.maxRetries(), null);
            return new Scheduled(new Classifier.Verdict(verdict.resultType(), verdict.code(), verdict.category(),
                    verdict.reason(), switched), new Backoff.Delay(Duration.ZERO, daily.get().why()),
                    RetryAction.SWITCH_PROVIDER);
        }
        // A success retried for its confidence has no error code: it waits the default base.
        Backoff.Delay delay = policy.backoff().delay(verdict.code() == null ? ErrorCode.UNKNOWN : verdict.code(), attempt,
                rateLimit, now, random);
        if (delay.duration().compareTo(policy.maxDelay()) <= 0) {
            return new Scheduled(verdict, delay, RetryAction.WAIT);
        }
        PolicyDecision stop = new PolicyDecision(ErrorHandling.STOP, DELAY_OUT_OF_RANGE,
                DELAY_OUT_OF_RANGE + ": " + delay.why() + " is longer than retry.max.delay.ms "
                        + policy.maxDelay().toMillis(),
                decision.consecutiveFailures(), decision.totalFailures(), decision.maxRetries(), StopReason.ERROR);
        return new Scheduled(new Classifier.Verdict(verdict.resultType(), verdict.code(), verdict.category(),
                verdict.reason(), stop));
    }

    /** The outcome's own fields; the caller adds what its kind of completion carries. */
    private static ClassifiedOutcome outcome(String taskId, String resultId, int attempt, Scheduled scheduled, Instant now) {
        Classifier.Verdict verdict = scheduled.verdict();
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
            avro.setAction(scheduled.action());
            outcome.setDecision(avro);
        }
        if (scheduled.delay() != null) {
            outcome.setRetryDelayMs(scheduled.delay().duration().toMillis());
            outcome.setRetryDelayReason(scheduled.delay().why());
        }
        return outcome;
    }
}
