package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.StopReason;

/**
 * A policy's decision with its explanation (seed 002's {@code ContinuationEvaluation}): what to do, the rule that
 * decided, the reason text, the failure counts, the retry limit, and on a stop, why ({@code retry_limit} or
 * {@code error}).
 */
public record PolicyDecision(ErrorHandling handling, String rule, String reason, int consecutiveFailures,
                             int totalFailures, int maxRetries, StopReason stopReason) {
}
