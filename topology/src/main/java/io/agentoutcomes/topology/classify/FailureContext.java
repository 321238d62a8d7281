package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;

/**
 * What a policy knows of one failed attempt: its canonical code and category, the task's failure counts including
 * this one, and the agent's own retryable hint, if it gave one.
 */
public record FailureContext(ErrorCode code, ErrorCategory category, int consecutiveFailures, int totalFailures,
                             Boolean retryableHint) {
}
