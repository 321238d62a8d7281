package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.fallback.FallbackChains;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What an orchestrator is told to re-run: the retry request of a retried outcome. */
public final class RetryRequests {
    private RetryRequests() {
    }

    /** What an orchestrator needs to re-run the task of a retried outcome. */
    public static RetryRequest of(ClassifiedOutcome outcome, RetryTiers tiers) {
        return of(outcome, tiers, FallbackChains.NONE);
    }

    /** As above, carrying the model a declared context-window chain re-runs a token-limit failure on. */
    public static RetryRequest of(ClassifiedOutcome outcome, RetryTiers tiers, FallbackChains fallbacks) {
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
        ContextWindowFallback.carried(retry, outcome.getAgentResult(), fallbacks);
        return retry;
    }

    /** The tier named on a retry a redrive re-issued: it waited in no delay topic. */
    public static final String REDRIVE_TIER = "redrive";

    /**
     * The retry a redrive re-issues for a dead letter: due now, attempt 0 (a fresh budget: the classifier starts the
     * task afresh when the re-run's result carries the redrive's id), with the dead letter's completion to re-run.
     */
    public static RetryRequest redriveOf(ClassifiedOutcome deadLetter, String redriveId, Instant now) {
        Decision decision = deadLetter.getDecision();
        RetryRequest retry = new RetryRequest();
        retry.setTaskId(deadLetter.getTaskId());
        retry.setResultId(deadLetter.getResultId());
        retry.setAgentId(deadLetter.getAgentId());
        retry.setJobId(deadLetter.getJobId());
        retry.setNodeId(deadLetter.getNodeId());
        retry.setNextAttempt(0);
        retry.setErrorCode(deadLetter.getErrorCode() == null ? ErrorCode.UNKNOWN.value() : deadLetter.getErrorCode());
        retry.setDelayMs(0L);
        retry.setDelayReason("redrive " + redriveId);
        retry.setTier(REDRIVE_TIER);
        retry.setFailedAt(deadLetter.getClassifiedAt());
        retry.setDueAt(now.toEpochMilli());
        retry.setReason("Redriven (redrive " + redriveId + ") after: "
                + (decision == null ? deadLetter.getReason() : decision.getReason()));
        retry.setAction(RetryAction.WAIT);
        retry.setAgentResult(deadLetter.getAgentResult());
        retry.setNodeFinished(deadLetter.getNodeFinished());
        return retry;
    }

    private static boolean isLowConfidenceRetry(ClassifiedOutcome outcome) {
        return outcome.getConfidenceCheck() != null && outcome.getConfidenceCheck().getAction() == ConfidenceAction.RETRY;
    }
}
