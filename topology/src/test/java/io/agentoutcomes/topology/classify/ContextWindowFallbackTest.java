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
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A token-limit failure with and without a context-window chain, as the classifier decides it (issue 33 item 2). */
class ContextWindowFallbackTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final RetryPolicy CHAINED = RetryPolicy.defaults().withFallbacks(new FallbackChains(List.of(new Chain(Kind.CONTEXT,
            new Model("openai", "gpt-4o-mini"), List.of(new Model("openai", "gpt-4.1"))))));
    private static final String SETTING = "fallback.context.openai/gpt-4o-mini=openai/gpt-4.1";

    private static AgentResult tooLarge(int attempt) {
        return AgentResult.newBuilder().setResultId("r" + attempt).setAgentId("a").setTaskId("t").setAttempt(attempt)
                .setDialect(Dialect.VAT_ENVELOPE).setExecution(ExecutionMetadata.newBuilder().setProvider("OpenAI")
                        .setModel("gpt-4o-mini").build())
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-token-limit").build()).build()).build();
    }

    private static ClassifiedOutcome classify(AgentResult result, TaskAttempts before, RetryPolicy policy) {
        return Classification.classify(result, before, policy, NOW, new Random(1));
    }

    @Test
    void withAContextChainATokenLimitFailureIsARetryDueAtOnceByTheChainsSetting() {
        ClassifiedOutcome outcome = classify(tooLarge(0), TaskAttempts.newBuilder().build(), CHAINED);

        assertThat(outcome.getResultType()).isEqualTo(ResultType.RETRYABLE_FAILURE);
        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(outcome.getDecision().getRule()).isEqualTo(SETTING);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Model error, retrying (1/5) on openai/gpt-4.1");
        assertThat(outcome.getRetryDelayMs()).isZero();
        assertThat(RetryRequests.of(outcome, CHAINED.tiers(), CHAINED.fallbacks()).getFallbackModel()).isEqualTo("gpt-4.1");
    }

    @Test
    void theRetryLimitStillStopsIt() {
        ClassifiedOutcome outcome = classify(tooLarge(4), TaskAttempts.newBuilder().build(), CHAINED);

        assertThat(outcome.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(outcome.getDecision().getRule()).isEqualTo(SETTING);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Model error after 5 consecutive failures (max: 5)");
        assertThat(outcome.getRetryDelayMs()).isNull();
    }

    @Test
    void aTaskStoppedBeforeStaysStopped() {
        TaskAttempts stopped = TaskAttempts.newBuilder().setAttempts(1).setConsecutiveFailures(1).setTotalFailures(1)
                .setStopReason(StopReason.ERROR).build();

        ClassifiedOutcome outcome = classify(tooLarge(1), stopped, CHAINED);

        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(outcome.getDecision().getRule()).isEqualTo("task stopped before (error)");
    }

    @Test
    void withoutAChainTheDecisionIsTheDefaultPolicysStopAsBefore() {
        ClassifiedOutcome chained = classify(tooLarge(0), TaskAttempts.newBuilder().build(),
                RetryPolicy.defaults().withFallbacks(new FallbackChains(List.of(new Chain(Kind.CONTEXT, new Model("openai", "gpt-4o"),
                        List.of(new Model("openai", "gpt-4.1")))))));
        ClassifiedOutcome plain = classify(tooLarge(0), TaskAttempts.newBuilder().build(), RetryPolicy.defaults());

        assertThat(plain.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(plain.getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
        assertThat(plain.getDecision().getRule()).isEqualTo("default policy, code llm-token-limit");
        // a chain for another model changes nothing
        assertThat(chained).isEqualTo(plain);
    }
}
