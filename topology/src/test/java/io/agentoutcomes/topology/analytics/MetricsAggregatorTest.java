package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.Classifier;
import io.agentoutcomes.topology.classify.ErrorPolicy;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MetricsAggregatorTest {
    private static final Dimensions KEY = Dimensions.of("agent-1", "gpt-4o-mini", "openai");

    private static ClassifiedOutcome outcome(ResultType type, Decision decision, Integer retryCount,
                                             ExecutionMetadata execution, Object agentOutcome) {
        AgentResult result = AgentResult.newBuilder().setResultId("r").setAgentId("agent-1").setTaskId("t")
                .setExecution(execution).setOutcome(agentOutcome).build();
        return ClassifiedOutcome.newBuilder().setTaskId("t").setResultId("r").setAttempt(0).setResultType(type)
                .setReason("x").setDecision(decision).setRetryCount(retryCount).setClassifiedAt(Instant.EPOCH.toEpochMilli())
                .setAgentResult(result).build();
    }

    private static ClassifiedOutcome success(ExecutionMetadata execution) {
        return outcome(ResultType.SUCCESS, null, 0, execution, Success.newBuilder().build());
    }

    private static Decision decision(ErrorHandling handling, StopReason stopReason) {
        return Decision.newBuilder().setHandling(handling).setRule("r").setReason("r").setConsecutiveFailures(1)
                .setTotalFailures(1).setMaxRetries(5).setStopReason(stopReason).build();
    }

    private static Failure failure() {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build();
    }

    @Test
    void aMillionCostsOfATenthOfAMicrodollarSumToExactlyTenCents() {
        ExecutionMetadata execution = ExecutionMetadata.newBuilder().setCost(Cost.newBuilder()
                .setTotal(Money.toBytes(new BigDecimal("0.000000100000"))).setSource(CostSource.REPORTED).build()).build();
        ClassifiedOutcome tiny = success(execution);
        AgentMetrics total = MetricsAggregator.empty(KEY);
        for (int i = 0; i < 1_000_000; i++) {
            total = LivePartial.addTo(total, tiny);
        }

        assertThat(total.getCostTotal()).isEqualTo(new BigDecimal("0.100000000000"));
        assertThat(total.getCompletions()).isEqualTo(Map.of("SUCCESS", 1_000_000L));
    }

    @Test
    void cachedTokensAreNeverCountedTwiceNorDropped() {
        Usage openAi = Usage.newBuilder().setInputTokens(100L).setCacheReadTokens(30L).setOutputTokens(50L).build();
        Usage anthropic = Usage.newBuilder().setInputTokens(70L).setCacheReadTokens(30L).setCacheWriteTokens(10L)
                .setOutputTokens(50L).build();

        AgentMetrics fromOpenAi = LivePartial.addTo(MetricsAggregator.empty(KEY),
                success(ExecutionMetadata.newBuilder().setProvider("openai").setUsage(openAi).build()));
        AgentMetrics fromAnthropic = LivePartial.addTo(MetricsAggregator.empty(KEY),
                success(ExecutionMetadata.newBuilder().setProvider("anthropic").setUsage(anthropic).build()));

        assertThat(List.of(fromOpenAi.getInputTokens(), fromOpenAi.getCacheReadTokens(), fromOpenAi.getOutputTokens(),
                fromOpenAi.getTotalTokens())).containsExactly(70L, 30L, 50L, 150L);
        assertThat(List.of(fromAnthropic.getInputTokens(), fromAnthropic.getCacheReadTokens(),
                fromAnthropic.getCacheWriteTokens(), fromAnthropic.getTotalTokens())).containsExactly(70L, 30L, 10L, 160L);
    }

    @Test
    void reasoningTokensAreSummedAsAPartOfTheOutputNotBesideIt() {
        Usage openAi = Usage.newBuilder().setInputTokens(100L).setOutputTokens(1_200L).setReasoningTokens(1_024L).build();
        Usage gemini = Usage.newBuilder().setInputTokens(11L).setOutputTokens(12L).setReasoningTokens(7L).build();
        Usage anthropic = Usage.newBuilder().setInputTokens(20L).setOutputTokens(900L).build();

        AgentMetrics total = MetricsAggregator.empty(KEY);
        for (Usage usage : List.of(openAi, gemini, anthropic)) {
            total = LivePartial.addTo(total, success(ExecutionMetadata.newBuilder().setUsage(usage).build()));
        }

        assertThat(List.of(total.getOutputTokens(), total.getReasoningTokens(), total.getTotalTokens()))
                .containsExactly(2_112L, 1_031L, 2_243L);
        assertThat(Figures.tokens(total)).isEqualTo(new Figures.Tokens(131L, 2_112L, 0L));
    }

    @Test
    void mergedAggregatesAddTheirReasoningTokens() {
        AgentMetrics a = LivePartial.addTo(MetricsAggregator.empty(KEY), success(ExecutionMetadata.newBuilder()
                .setUsage(Usage.newBuilder().setOutputTokens(50L).setReasoningTokens(30L).build()).build()));
        AgentMetrics b = LivePartial.addTo(MetricsAggregator.empty(KEY), success(ExecutionMetadata.newBuilder()
                .setUsage(Usage.newBuilder().setOutputTokens(9L).setReasoningTokens(4L).build()).build()));

        assertThat(MetricsAggregator.merge(a, b).getReasoningTokens()).isEqualTo(34L);
        assertThat(LivePartial.from(KEY, a).toMetrics().getReasoningTokens()).as("a partial going on from a stored one")
                .isEqualTo(30L);
    }

    @Test
    void reasoningBeyondItsOutputIsCountedUpToTheOutputSoNoTokenCountsTwice() {
        // a producer that kept Gemini's 7 thoughts apart from its 5 output tokens, or reported reasoning and no output
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setOutputTokens(5L).setReasoningTokens(7L).build(), "gemini")
                .reasoning()).isEqualTo(5L);
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setReasoningTokens(7L).build(), null).reasoning()).isZero();
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setOutputTokens(5L).build(), null).reasoning()).isZero();
    }

    @Test
    void unknownProvidersAreReadByWhetherTheCacheFitsInTheInput() {
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setInputTokens(100L).setCacheReadTokens(40L).build(),
                "acme").input()).isEqualTo(60L);
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setInputTokens(10L).setCacheReadTokens(40L).build(),
                "acme").input()).isEqualTo(10L);
        assertThat(TokenNormalizer.normalize(Usage.newBuilder().setTotalTokens(450L).build(), null).total()).isEqualTo(450L);
    }

    @Test
    void partialFindingsNeverCountAsSuccess() {
        Failure withPartials = Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("unknown")
                .setMessage("API request failed: 500").build()).setPartialFindings(List.of(Finding.newBuilder()
                .setSeverity(Severity.ERROR).setFile("a.ts").setMessage("XSS").build())).build();

        AgentMetrics metrics = LivePartial.addTo(MetricsAggregator.empty(KEY), outcome(ResultType.PERMANENT_FAILURE,
                decision(ErrorHandling.STOP, StopReason.ERROR), 0, null, withPartials));

        assertThat(metrics.getCompletions()).isEqualTo(Map.of("PERMANENT_FAILURE", 1L));
        assertThat(metrics.getDeadLetters()).isEqualTo(Map.of("ERROR", 1L));
    }

    @Test
    void seed002AnIgnoredFailureIsCountedUnderItsOwnTypeNotAsAPermanentFailure() {
        AgentResult toolError = AgentResult.newBuilder().setResultId("r").setAgentId("agent-1").setTaskId("t")
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("event-rejected").build()).build())
                .build();
        RetryPolicy ignoring = RetryPolicy.defaults().withClassifier(new Classifier(ErrorPolicy.ignoreToolErrors(), Map.of()));
        ClassifiedOutcome ignored = Classification.classify(toolError, TaskAttempts.newBuilder().build(), ignoring,
                Instant.EPOCH, new Random(1));

        AgentMetrics metrics = LivePartial.addTo(MetricsAggregator.empty(KEY), ignored);

        assertThat(metrics.getCompletions()).isEqualTo(Map.of("IGNORED_FAILURE", 1L));
        assertThat(metrics.getIgnoredFailures()).isEqualTo(1);
        assertThat(metrics.getDeadLetters()).isEmpty();
        assertThat(metrics.getRetryCounts()).isEqualTo(Map.of("0", 1L));
    }

    @Test
    void failuresAreCountedByTheirCanonicalErrorCodeSuccessesAndSkipsNot() {
        AgentMetrics metrics = MetricsAggregator.empty(KEY);
        for (String code : new String[] {"llm-timeout", "llm-timeout", "llm-rate-limit"}) {
            ClassifiedOutcome failed = outcome(ResultType.RETRYABLE_FAILURE, decision(ErrorHandling.RETRY, null), null, null,
                    failure());
            failed.setErrorCode(code);
            metrics = LivePartial.addTo(metrics, failed);
        }
        ClassifiedOutcome permanent = outcome(ResultType.PERMANENT_FAILURE, decision(ErrorHandling.STOP, StopReason.ERROR),
                0, null, failure());
        permanent.setErrorCode("auth-failed");
        metrics = LivePartial.addTo(metrics, permanent);
        metrics = LivePartial.addTo(metrics, success(null));

        assertThat(metrics.getFailuresByErrorCode()).isEqualTo(Map.of("llm-timeout", 2L, "llm-rate-limit", 1L,
                "auth-failed", 1L));
        assertThat(MetricsAggregator.merge(metrics, metrics).getFailuresByErrorCode()).isEqualTo(Map.of(
                "llm-timeout", 4L, "llm-rate-limit", 2L, "auth-failed", 2L));
    }

    private static ClassifiedOutcome withConfidence(ResultType type, Double confidence) {
        ClassifiedOutcome outcome = type == ResultType.SUCCESS ? success(null)
                : outcome(type, null, null, null, InProgress.newBuilder().build());
        outcome.getAgentResult().setConfidence(confidence);
        return outcome;
    }

    @Test
    void seed000TheAnalyticsCarryAConfidenceDistributionPerAgent() {
        AgentMetrics metrics = MetricsAggregator.empty(KEY);
        for (Double confidence : new Double[] {0.65, 0.98, 0.6, 1.0, 0.0, null}) {
            metrics = LivePartial.addTo(metrics, withConfidence(ResultType.SUCCESS, confidence));
        }
        metrics = LivePartial.addTo(metrics, withConfidence(ResultType.IN_PROGRESS, 0.5));

        assertThat(metrics.getConfidenceBuckets()).isEqualTo(Map.of("0.6-0.7", 2L, "0.9-1.0", 2L, "0.0-0.1", 1L));
        AgentMetrics merged = MetricsAggregator.merge(metrics, metrics);
        assertThat(merged.getConfidenceBuckets()).isEqualTo(Map.of("0.6-0.7", 4L, "0.9-1.0", 4L, "0.0-0.1", 2L));
    }

    @Test
    void retriesAreCountedOncePerAttemptAndTheRetryCountOnTheFinalOutcome() {
        AgentMetrics metrics = MetricsAggregator.empty(KEY);
        metrics = LivePartial.addTo(metrics, outcome(ResultType.RETRYABLE_FAILURE,
                decision(ErrorHandling.RETRY, null), null, null, failure()));
        metrics = LivePartial.addTo(metrics, outcome(ResultType.RETRYABLE_FAILURE,
                decision(ErrorHandling.RETRY, null), null, null, failure()));
        metrics = LivePartial.addTo(metrics, outcome(ResultType.RETRYABLE_FAILURE,
                decision(ErrorHandling.STOP, StopReason.RETRY_LIMIT), 2, null, failure()));

        assertThat(metrics.getAttempts()).isEqualTo(3);
        assertThat(metrics.getRetries()).isEqualTo(2);
        assertThat(metrics.getDeadLetters()).isEqualTo(Map.of("RETRY_LIMIT", 1L));
        assertThat(metrics.getRetryCounts()).isEqualTo(Map.of("2", 1L));
        assertThat(metrics.getCompletions()).isEqualTo(Map.of("RETRYABLE_FAILURE", 3L));
    }

    @Test
    void durationPercentilesAreWithinATenthOfAPercentOfAKnownDistribution() {
        AgentMetrics firstHalf = MetricsAggregator.empty(KEY);
        AgentMetrics secondHalf = MetricsAggregator.empty(KEY);
        for (long ms = 1; ms <= 10_000; ms++) {
            ClassifiedOutcome timed = success(ExecutionMetadata.newBuilder().setDurationMs(ms).build());
            if (ms % 2 == 0) {
                firstHalf = LivePartial.addTo(firstHalf, timed);
            } else {
                secondHalf = LivePartial.addTo(secondHalf, timed);
            }
        }

        AgentMetrics merged = MetricsAggregator.withPercentiles(MetricsAggregator.merge(firstHalf, secondHalf));

        assertThat(merged.getDurationCount()).isEqualTo(10_000);
        assertThat(merged.getDurationSumMs()).as("exact, unlike the sketch").isEqualTo(50_005_000L);
        assertThat(merged.getDurationP50Ms()).isBetween(4_995L, 5_005L);
        assertThat(merged.getDurationP95Ms()).isBetween(9_490L, 9_510L);
        assertThat(merged.getDurationP99Ms()).isBetween(9_890L, 9_910L);
        assertThat(MetricsAggregator.withPercentiles(MetricsAggregator.empty(KEY)).getDurationP50Ms()).isNull();
    }

    @Test
    void mergingInEitherOrderGivesTheSameFigures() {
        AgentMetrics a = LivePartial.addTo(MetricsAggregator.empty(KEY), success(ExecutionMetadata.newBuilder()
                .setDurationMs(120L).setUsage(Usage.newBuilder().setOutputTokens(5L).build()).setCost(Cost.newBuilder()
                        .setTotal(Money.toBytes(new BigDecimal("0.010000000000"))).setInput(Money.toBytes(new BigDecimal("0.004000000000")))
                        .setSource(CostSource.REPORTED).build()).build()));
        AgentMetrics b = LivePartial.addTo(MetricsAggregator.empty(KEY), outcome(ResultType.RETRYABLE_FAILURE,
                decision(ErrorHandling.RETRY, null), null, ExecutionMetadata.newBuilder().setDurationMs(900L).build(),
                failure()));

        AgentMetrics ab = MetricsAggregator.withPercentiles(MetricsAggregator.merge(a, b));
        AgentMetrics ba = MetricsAggregator.withPercentiles(MetricsAggregator.merge(b, a));

        assertThat(ab.getCompletions()).isEqualTo(ba.getCompletions())
                .isEqualTo(Map.of("SUCCESS", 1L, "RETRYABLE_FAILURE", 1L));
        assertThat(ab.getCostTotal()).isEqualTo(ba.getCostTotal()).isEqualTo(new BigDecimal("0.010000000000"));
        assertThat(ab.getCostInput()).isEqualTo(new BigDecimal("0.004000000000"));
        assertThat(ab.getDurationP99Ms()).isEqualTo(ba.getDurationP99Ms());
        assertThat(ab.getRetries()).isEqualTo(1);
        assertThat(ab.getOutputTokens()).isEqualTo(5);
    }

    @Test
    void continuationStopsAreCountedByReason() {
        ContinuationEvaluated stop = ContinuationEvaluated.newBuilder().setAgentId("agent-1").setStep(3)
                .setShouldContinue(false).setStopReason(StopReason.STEPS_LIMIT).setResolvedBy("StepsLimit").build();
        ContinuationEvaluated go = ContinuationEvaluated.newBuilder(stop).setShouldContinue(true)
                .setStopReason(StopReason.COMPLETED).build();

        AgentMetrics metrics = LivePartial.addContinuationTo(LivePartial.addContinuationTo(
                MetricsAggregator.empty(KEY), stop), go);

        assertThat(metrics.getContinuationStops()).isEqualTo(Map.of("STEPS_LIMIT", 1L));
    }
}
