package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What an orchestrator is told to re-run: the retry request of a retried outcome. */
public final class RetryRequests {
    private RetryRequests() {
    }

    /** What an orchestrator needs to re-run the task of a retried outcome. */
    public static RetryRequest of(ClassifiedOutcome outcome, RetryTiers tiers) {
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

    private static boolean isLowConfidenceRetry(ClassifiedOutcome outcome) {
        return outcome.getConfidenceCheck() != null && outcome.getConfidenceCheck().getAction() == ConfidenceAction.RETRY;
    }
}
