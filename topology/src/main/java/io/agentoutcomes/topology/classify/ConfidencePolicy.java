package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ConfidenceAction;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * Confidence rules, opt-in: a success below {@code retryBelow} is retried ("retry if confidence < 0.8"),
 * counted against the task's attempts; one below {@code verifyBelow} is routed to be verified by another agent
 * ("verify uncertain results with another agent"). A retry comes first while attempts remain; once they are used up
 * the success is verified if it is below {@code verifyBelow}, else accepted. Pure: the caller supplies the attempt.
 *
 * @param retryBelow  the threshold below which a success is retried; null: off
 * @param verifyBelow the threshold below which a success is verified; null: off
 */
public record ConfidencePolicy(Double retryBelow, Double verifyBelow) {
    public static final String RETRY_BELOW_CONFIG = "policy.confidence.retry-below";
    public static final String VERIFY_BELOW_CONFIG = "policy.confidence.verify-below";
    /** The {@code errorCode} of a {@code RetryRequest} that re-runs a success for its low confidence. */
    public static final String LOW_CONFIDENCE = "low-confidence";

    /** What the policy makes of one success. */
    public record Check(double confidence, double threshold, ConfidenceAction action, String rule, String reason) {
    }

    public ConfidencePolicy {
        for (Double threshold : new Double[] {retryBelow, verifyBelow}) {
            if (threshold != null && !(threshold >= 0 && threshold <= 1)) {
                throw new IllegalArgumentException("a confidence threshold is between 0 and 1, was " + threshold);
            }
        }
    }

    /** No confidence rule: the default. */
    public static ConfidencePolicy off() {
        return new ConfidencePolicy(null, null);
    }

    /**
     * @param confidence the success's confidence, or null (then no rule applies)
     * @param attempt    the attempt of this success (0 = the first try)
     * @param maxRetries the agent policy's limit: attempts 0 to maxRetries - 1, as for failures
     */
    public Optional<Check> check(Double confidence, int attempt, int maxRetries) {
        if (confidence == null) {
            return Optional.empty();
        }
        String value = number(confidence);
        boolean verify = verifyBelow != null && confidence < verifyBelow;
        if (retryBelow != null && confidence < retryBelow) {
            String below = "Confidence " + value + " below " + number(retryBelow);
            if (attempt + 1 < maxRetries) {
                return Optional.of(new Check(confidence, retryBelow, ConfidenceAction.RETRY, rule(RETRY_BELOW_CONFIG, retryBelow),
                        below + ", retrying (" + (attempt + 1) + "/" + maxRetries + ")"));
            }
            String usedUp = below + " after " + (attempt + 1) + " attempts (max: " + maxRetries + ")";
            return Optional.of(verify
                    ? new Check(confidence, verifyBelow, ConfidenceAction.VERIFY, rule(VERIFY_BELOW_CONFIG, verifyBelow),
                            usedUp + "; below " + number(verifyBelow) + ": " + VERIFY_TEXT)
                    : new Check(confidence, retryBelow, ConfidenceAction.ACCEPT, rule(RETRY_BELOW_CONFIG, retryBelow),
                            usedUp + ": accepted"));
        }
        if (verify) {
            return Optional.of(new Check(confidence, verifyBelow, ConfidenceAction.VERIFY, rule(VERIFY_BELOW_CONFIG, verifyBelow),
                    "Confidence " + value + " below " + number(verifyBelow) + ": " + VERIFY_TEXT));
        }
        return Optional.empty();
    }

    private static final String VERIFY_TEXT = "verify with another agent";

    private static String rule(String setting, double threshold) {
        return setting + "=" + number(threshold);
    }

    /** 0.8, not 0.80000000000000004 nor 0.800. */
    private static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
