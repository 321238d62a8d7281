package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.ConfidenceAction;
import org.junit.jupiter.api.Test;

/** Seed 000's "retry if confidence < 0.8" and "verify uncertain results with another agent", as a pure decision. */
class ConfidencePolicyTest {
    private final ConfidencePolicy retryAndVerify = new ConfidencePolicy(0.8, 0.9);

    @Test
    void seed000ASuccessBelowTheRetryThresholdIsRetriedWhileAttemptsRemain() {
        assertThat(retryAndVerify.check(0.65, 0, 5)).contains(new ConfidencePolicy.Check(0.65, 0.8, ConfidenceAction.RETRY,
                "policy.confidence.retry-below=0.8", "Confidence 0.65 below 0.8, retrying (1/5)"));
        assertThat(retryAndVerify.check(0.65, 3, 5)).hasValueSatisfying(check ->
                assertThat(check.reason()).isEqualTo("Confidence 0.65 below 0.8, retrying (4/5)"));
    }

    @Test
    void seed000ALowConfidenceSuccessWhoseAttemptsAreUsedUpIsVerifiedOrElseAccepted() {
        assertThat(retryAndVerify.check(0.65, 4, 5)).contains(new ConfidencePolicy.Check(0.65, 0.9, ConfidenceAction.VERIFY,
                "policy.confidence.verify-below=0.9",
                "Confidence 0.65 below 0.8 after 5 attempts (max: 5); below 0.9: verify with another agent"));
        assertThat(new ConfidencePolicy(0.8, null).check(0.65, 4, 5)).contains(new ConfidencePolicy.Check(0.65, 0.8,
                ConfidenceAction.ACCEPT, "policy.confidence.retry-below=0.8",
                "Confidence 0.65 below 0.8 after 5 attempts (max: 5): accepted"));
    }

    @Test
    void seed000AnUncertainSuccessIsVerifiedWithAnotherAgent() {
        assertThat(retryAndVerify.check(0.85, 0, 5)).contains(new ConfidencePolicy.Check(0.85, 0.9, ConfidenceAction.VERIFY,
                "policy.confidence.verify-below=0.9", "Confidence 0.85 below 0.9: verify with another agent"));
    }

    @Test
    void seed000AConfidentSuccessProceedsAndWithoutSettingsNothingChanges() {
        assertThat(retryAndVerify.check(0.98, 0, 5)).isEmpty();
        assertThat(retryAndVerify.check(null, 0, 5)).isEmpty();
        assertThat(ConfidencePolicy.off().check(0.1, 0, 5)).isEmpty();
    }

    @Test
    void aThresholdOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> new ConfidencePolicy(1.5, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a confidence threshold is between 0 and 1, was 1.5");
    }
}
