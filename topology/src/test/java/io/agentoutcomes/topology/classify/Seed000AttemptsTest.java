package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's retry semantics: five attempts numbered 0..4, {@code retryCount: 4} = "failed 5 times (max retries
 * exceeded)". The declared attempt, the declared retryCount and the pipeline's own count bound retries alike.
 */
class Seed000AttemptsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final TaskAttempts FRESH = TaskAttempts.newBuilder().build();

    private static AgentResult timeout(int attempt, Integer retryCount) {
        return AgentResult.newBuilder().setResultId("r-" + attempt).setAgentId("a").setTaskId("t")
                .setDialect(Dialect.VAT_ENVELOPE).setAttempt(attempt)
                .setExecution(retryCount == null ? null : ExecutionMetadata.newBuilder().setRetryCount(retryCount).build())
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build())
                .build();
    }

    private static ClassifiedOutcome classify(AgentResult result, TaskAttempts before) {
        return Classification.classify(result, before, RetryPolicy.defaults(), NOW, new Random(1));
    }

    @Test
    void seed000FiveAttemptsDeclaredAttemptFourIsTheFifthFailureAndStopsWithRetryLimit() {
        ClassifiedOutcome outcome = classify(timeout(4, null), FRESH);

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Timeout error after 5 consecutive failures (max: 5)");
        assertThat(outcome.getDecision().getConsecutiveFailures()).isEqualTo(5);
        assertThat(outcome.getAttempt()).isEqualTo(4);
        assertThat(outcome.getRetryCount()).isEqualTo(4);
        assertThat(outcome.getRetryDelayMs()).isNull();
    }

    @Test
    void seed000DeclaredAttemptFiveIsBeyondTheFiveAttemptsAndStops() {
        ClassifiedOutcome outcome = classify(timeout(5, null), FRESH);

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Timeout error after 6 consecutive failures (max: 5)");
        assertThat(outcome.getRetryCount()).isEqualTo(5);
    }

    @Test
    void seed000DeclaredAttemptSetsTheCountShownAndTheBackoffExponentAlike() {
        ClassifiedOutcome outcome = classify(timeout(2, null), FRESH);

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Timeout error, retrying (3/5)");
        assertThat(outcome.getRetryDelayMs()).isEqualTo(4_000L);
        assertThat(outcome.getRetryDelayReason()).isEqualTo("backoff 1000 ms x 2^2");
        assertThat(outcome.getAttempt()).isEqualTo(2);
    }

    @Test
    void seed000RetryCountFourMeansFailedFiveTimesMaxExceeded() {
        ClassifiedOutcome outcome = classify(timeout(0, 4), FRESH);

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Timeout error after 5 consecutive failures (max: 5)");
        assertThat(outcome.getRetryCount()).isEqualTo(4);
        assertThat(outcome.getAgentResult().getExecution().getRetryCount()).isEqualTo(4);
    }

    @Test
    void seed000OrchestratorRetryCountIsNotOverwrittenByASmallerPipelineCount() {
        AgentResult success = AgentResult.newBuilder().setResultId("r-ok").setAgentId("a").setTaskId("t")
                .setExecution(ExecutionMetadata.newBuilder().setRetryCount(2).build())
                .setOutcome(Success.newBuilder().build()).build();

        ClassifiedOutcome outcome = classify(success, FRESH);

        assertThat(outcome.getRetryCount()).isEqualTo(2);
        assertThat(outcome.getAgentResult().getExecution().getRetryCount()).isEqualTo(2);
    }

    @Test
    void seed000AStoppedTaskStaysStoppedALaterFailureStopsWithTheSameStopReason() {
        ClassifiedOutcome stop = classify(timeout(4, null), FRESH);
        TaskAttempts after = TaskMemory.next(FRESH, stop);

        ClassifiedOutcome later = classify(timeout(5, null), after);
        ClassifiedOutcome laterWithoutAttempt = classify(timeout(0, null), after);

        for (ClassifiedOutcome outcome : new ClassifiedOutcome[] {later, laterWithoutAttempt}) {
            assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
            assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
            assertThat(outcome.getDecision().getRule()).isEqualTo("task stopped before (retry_limit)");
            assertThat(outcome.getAttempt()).isEqualTo(5);
            assertThat(outcome.getRetryDelayMs()).isNull();
        }
    }

    @Test
    void seed000AStoppedTaskThatLaterSucceedsIsOverAndItsNextFailureStartsAfresh() {
        ClassifiedOutcome stop = classify(timeout(4, null), FRESH);
        TaskAttempts stopped = TaskMemory.next(FRESH, stop);
        AgentResult success = AgentResult.newBuilder().setResultId("r-ok").setAgentId("a").setTaskId("t")
                .setOutcome(Success.newBuilder().build()).build();
        TaskAttempts done = TaskMemory.next(stopped, classify(success, stopped));

        ClassifiedOutcome next = classify(timeout(0, null), done);

        assertThat(next.getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(next.getDecision().getReason()).isEqualTo("Timeout error, retrying (1/5)");
    }

    @Test
    void aLaterFailureOfAStoppedTaskIsAPermanentFailureAsDocsClassificationSays() {
        TaskAttempts stopped = TaskMemory.next(FRESH, classify(timeout(4, null), FRESH));

        ClassifiedOutcome later = classify(timeout(5, null), stopped);

        assertThat(later.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(later.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(later.getDecision().getReason()).isEqualTo("Timeout error after 6 consecutive failures (max: 5)");
    }

    @Test
    void aLaterFailureOfATaskStoppedByARuleBlamesTheEarlierStopNotALimit() {
        AgentResult refusal = AgentResult.newBuilder().setResultId("r-refused").setAgentId("a").setTaskId("t")
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-refusal").build()).build())
                .build();
        TaskAttempts stopped = TaskMemory.next(FRESH, classify(refusal, FRESH));

        ClassifiedOutcome later = classify(timeout(1, null), stopped);

        assertThat(later.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(later.getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
        assertThat(later.getDecision().getReason()).isEqualTo("Timeout error, not retried: task stopped before (error)");
    }
}
