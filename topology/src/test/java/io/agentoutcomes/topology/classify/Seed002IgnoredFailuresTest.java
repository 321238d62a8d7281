package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's {@code countConsecutiveFailures} walks the steps back from the latest and counts every one with errors
 * until one without: a failure the policy ignored is still a step with errors. So an ignored failure neither resets
 * the consecutive count nor the attempt number; only a success (or a skip) does.
 */
class Seed002IgnoredFailuresTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    /** Tool errors ignored, everything else retried up to 5 consecutive failures. */
    private static final RetryPolicy POLICY = RetryPolicy.defaults().withClassifier(new Classifier(
            ErrorPolicy.retryAll(5).withCategory(ErrorCategory.TOOL, ErrorHandling.IGNORE), Map.of()));

    private static AgentResult result(int i, String code) {
        return AgentResult.newBuilder().setResultId("r-" + i).setAgentId("a").setTaskId("t")
                .setOutcome(code == null ? Success.newBuilder().build()
                        : Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build())
                .build();
    }

    /** Each completion in turn, classified against the state the previous ones left. */
    private static List<ClassifiedOutcome> classify(RetryPolicy policy, String... codes) {
        TaskAttempts state = TaskAttempts.newBuilder().build();
        List<ClassifiedOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < codes.length; i++) {
            ClassifiedOutcome outcome = Classification.classify(result(i, codes[i]), state, policy, NOW, new Random(1));
            state = TaskMemory.next(state, outcome);
            outcomes.add(outcome);
        }
        return outcomes;
    }

    @Test
    void ignoredFailuresCountAmongTheTrailingFailuresAndTheAttempts() {
        List<ClassifiedOutcome> outcomes = classify(POLICY, "event-rejected", "event-rejected", "llm-timeout");

        assertThat(outcomes).extracting(ClassifiedOutcome::getResultType).containsExactly(ResultType.IGNORED_FAILURE,
                ResultType.IGNORED_FAILURE, ResultType.RETRYABLE_FAILURE);
        assertThat(outcomes).extracting(ClassifiedOutcome::getAttempt).containsExactly(0, 1, 2);
        assertThat(outcomes).extracting(o -> o.getDecision().getConsecutiveFailures()).containsExactly(1, 2, 3);
        assertThat(outcomes).extracting(o -> o.getDecision().getTotalFailures()).containsExactly(1, 2, 3);
        assertThat(outcomes.get(2).getDecision().getReason()).isEqualTo("Timeout error, retrying (3/5)");
    }

    @Test
    void seed002IgnoreToolErrorsStopsARateLimitThatFollowsAnIgnoredToolError() {
        // ignoreToolErrors(): rate limits are retried with maxRetries 0, so any trailing failure stops the next one.
        RetryPolicy ignoreToolErrors = RetryPolicy.defaults().withClassifier(new Classifier(ErrorPolicy.ignoreToolErrors(),
                Map.of()));

        ClassifiedOutcome rateLimit = classify(ignoreToolErrors, "event-rejected", "llm-rate-limit").get(1);

        assertThat(rateLimit.getAttempt()).isEqualTo(1);
        assertThat(rateLimit.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(rateLimit.getDecision().getReason()).isEqualTo("Rate_limit error after 2 consecutive failures (max: 0)");
    }

    @Test
    void aSuccessStillStartsTheCountAfresh() {
        List<ClassifiedOutcome> outcomes = classify(POLICY, "event-rejected", null, "llm-timeout");

        assertThat(outcomes.get(2).getAttempt()).isZero();
        assertThat(outcomes.get(2).getDecision().getConsecutiveFailures()).isEqualTo(1);
        assertThat(outcomes.get(2).getDecision().getTotalFailures()).isEqualTo(2);
    }
}
