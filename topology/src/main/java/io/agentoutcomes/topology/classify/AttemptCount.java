package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.TaskAttempts;

/**
 * Which attempt a completion is, and the failures before it, from the pipeline's own count and what the producer
 * declared ({@code attempt} numbers tries from 0; an orchestrator's {@code execution.retryCount} is the retries
 * it already made). The largest wins, so a producer that numbers its attempts, an orchestrator that retried on its own,
 * and a pipeline that counted each see the same limit: the count shown, the backoff exponent and the stop all follow
 * {@link #attempt}. Pure.
 *
 * @param attempt           0 = the first try
 * @param consecutiveBefore failures in a row before this completion: at least {@code attempt}
 * @param totalBefore       failures of the task before this completion: at least {@code consecutiveBefore}
 * @param source            which count gave {@code attempt}, for explanations
 */
public record AttemptCount(int attempt, int consecutiveBefore, int totalBefore, String source) {

    /**
     * @param declaredAttempt    the producer's {@code attempt} (0 when it set none)
     * @param declaredRetryCount the orchestrator's {@code execution.retryCount}, or null
     */
    public static AttemptCount of(TaskAttempts before, int declaredAttempt, Integer declaredRetryCount) {
        int attempt = Math.max(Math.max(before.getAttempts(), before.getConsecutiveFailures()),
                Math.max(declaredAttempt, declaredRetryCount == null ? 0 : declaredRetryCount));
        int consecutiveBefore = Math.max(before.getConsecutiveFailures(), attempt);
        String source;
        if (attempt == 0) {
            source = "first attempt";
        } else if (declaredAttempt == attempt) {
            source = "declared attempt " + declaredAttempt;
        } else if (declaredRetryCount != null && declaredRetryCount == attempt) {
            source = "declared execution.retryCount " + declaredRetryCount;
        } else {
            source = "pipeline count: " + attempt + " earlier completions";
        }
        return new AttemptCount(attempt, consecutiveBefore, Math.max(before.getTotalFailures(), consecutiveBefore), source);
    }
}
