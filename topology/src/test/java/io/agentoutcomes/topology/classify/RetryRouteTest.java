package io.agentoutcomes.topology.classify;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.ConfidenceCheck;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The whole route on a TopologyTestDriver: classify, delay, schedule by the wall clock, dead-letter. */
class RetryRouteTest {
    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> agentResults;
    private TestInputTopic<String, NodeFinished> nodeFinished;
    private TestOutputTopic<String, ClassifiedOutcome> classified;
    private TestOutputTopic<String, RetryRequest> ready;
    private TestOutputTopic<String, ClassifiedOutcome> deadLetter;
    private TestOutputTopic<String, ClassifiedOutcome> compensations;
    private TestOutputTopic<String, ClassifiedOutcome> verifications;

    private void start(RetryPolicy policy) {
        pipeline = StageDriver.pipeline(policy);
        agentResults = pipeline.input(pipeline.topics.agentResults);
        nodeFinished = pipeline.input(pipeline.topics.nodeFinished);
        classified = pipeline.output(pipeline.topics.outcomesClassified);
        ready = pipeline.output(pipeline.topics.retryReady);
        deadLetter = pipeline.output(pipeline.topics.deadLetter);
        compensations = pipeline.output(pipeline.topics.compensations);
        verifications = pipeline.output(pipeline.topics.verifications);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private static AgentResult failure(String resultId, String code, RateLimitState rateLimit) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId("task-1")
                .setDialect(Dialect.VAT_ENVELOPE).setRateLimit(rateLimit)
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build()).build();
    }

    private static AgentResult success(String resultId) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId("task-1")
                .setOutcome(Success.newBuilder().build()).build();
    }

    private void publish(AgentResult result) {
        agentResults.pipeInput(result.getTaskId(), result, T0);
    }

    @Test
    void rateLimitedResultWaitsItsBackoffAndIsForwardedOnceNeverEarly() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "llm-rate-limit", null));

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getResultType()).isEqualTo(ResultType.RETRYABLE_FAILURE);
        assertThat(outcome.getErrorCode()).isEqualTo("llm-rate-limit");
        assertThat(outcome.getErrorCategory()).isEqualTo(ErrorCategory.RATE_LIMIT);
        assertThat(outcome.getDecision()).isEqualTo(Decision.newBuilder().setHandling(ErrorHandling.RETRY)
                .setRule("default policy, code llm-rate-limit").setReason("Rate_limit error, retrying (1/5)")
                .setConsecutiveFailures(1).setTotalFailures(1).setMaxRetries(5).setAction(RetryAction.WAIT).build());
        assertThat(outcome.getRetryDelayMs()).isEqualTo(5_000L);
        assertThat(outcome.getRetryCount()).isNull();

        pipeline.advance(Duration.ofMillis(4_999));
        assertThat(ready.isEmpty()).as("nothing a millisecond early").isTrue();
        pipeline.advance(Duration.ofMillis(1));
        List<TestRecord<String, RetryRequest>> due = ready.readRecordsToList();
        assertThat(due).hasSize(1);
        RetryRequest retry = due.get(0).value();
        assertThat(due.get(0).key()).isEqualTo("task-1");
        assertThat(retry.getDueAt()).isEqualTo(T0.plusMillis(5_000).toEpochMilli());
        assertThat(retry.getNextAttempt()).isEqualTo(1);
        assertThat(retry.getDelayMs()).isEqualTo(5_000L);
        assertThat(retry.getDelayReason()).isEqualTo("backoff 5000 ms x 2^0");
        assertThat(retry.getTier()).isEqualTo("5s");
        assertThat(retry.getAgentResult()).isEqualTo(failure("r-1", "llm-rate-limit", null));
        assertThat(due.get(0).timestamp()).isGreaterThanOrEqualTo(retry.getDueAt());

        pipeline.advance(Duration.ofMinutes(5));
        assertThat(ready.isEmpty()).as("forwarded once").isTrue();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void eachAttemptBacksOffLongerAndTheFifthFailureIsDeadLetteredWithRetryLimit() {
        start(RetryPolicy.defaults());
        long[] expectedDelays = {1_000, 2_000, 4_000, 8_000};
        for (int attempt = 0; attempt < 4; attempt++) {
            publish(failure("r-" + attempt, "llm-timeout", null));
            ClassifiedOutcome outcome = classified.readValue();
            assertThat(outcome.getAttempt()).isEqualTo(attempt);
            assertThat(outcome.getRetryDelayMs()).isEqualTo(expectedDelays[attempt]);
            pipeline.advance(Duration.ofMillis(expectedDelays[attempt] - 1));
            assertThat(ready.isEmpty()).isTrue();
            pipeline.advance(Duration.ofMillis(1));
            assertThat(ready.readValue().getNextAttempt()).isEqualTo(attempt + 1);
        }
        publish(failure("r-4", "llm-timeout", null));

        ClassifiedOutcome last = classified.readValue();
        assertThat(last.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(last.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(last.getDecision().getReason()).isEqualTo("Timeout error after 5 consecutive failures (max: 5)");
        assertThat(last.getRetryCount()).isEqualTo(4);
        assertThat(last.getAgentResult().getExecution().getRetryCount()).isEqualTo(4);
        assertThat(deadLetter.readKeyValuesToList()).containsExactly(KeyValue.pair("task-1", last));
        pipeline.advance(Duration.ofMinutes(5));
        assertThat(ready.isEmpty()).isTrue();
    }

    @Test
    void aPermanentErrorStopsAtOnce() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "llm-refusal", null));

        ClassifiedOutcome dead = deadLetter.readValue();
        assertThat(dead.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(dead.getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
        assertThat(dead.getDecision().getReason()).isEqualTo("Model error, not retried: default policy, code llm-refusal");
        assertThat(dead.getRetryCount()).isZero();
    }

    @Test
    void successAfterTwoRetriesCarriesRetryCountTwo() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "llm-unavailable", null));
        publish(failure("r-2", "llm-unavailable", null));
        publish(success("r-3"));

        List<ClassifiedOutcome> outcomes = classified.readValuesToList();
        assertThat(outcomes).extracting(ClassifiedOutcome::getResultType).containsExactly(ResultType.RETRYABLE_FAILURE,
                ResultType.RETRYABLE_FAILURE, ResultType.SUCCESS);
        assertThat(outcomes.get(2).getRetryCount()).isEqualTo(2);
        assertThat(outcomes.get(2).getAgentResult().getExecution().getRetryCount()).isEqualTo(2);
        assertThat(outcomes.get(2).getDecision()).isNull();
    }

    @Test
    void aDuplicateResultIsProcessedOnce() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "llm-timeout", null));
        publish(failure("r-1", "llm-timeout", null));

        assertThat(classified.readValuesToList()).hasSize(1);
        pipeline.advance(Duration.ofSeconds(10));
        assertThat(ready.readValuesToList()).hasSize(1);
    }

    @Test
    void providerRetryAfterBeyondTheCapWaitsInTheLongTier() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "rate_limit", RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(60_000L).build()));

        assertThat(classified.readValue().getRetryDelayReason())
                .isEqualTo("provider retry_after 60000 ms (over backoff 5000 ms x 2^0)");
        pipeline.advance(Duration.ofMillis(59_999));
        assertThat(ready.isEmpty()).isTrue();
        pipeline.advance(Duration.ofMillis(1));
        assertThat(ready.readValue().getTier()).isEqualTo("long");
    }

    @Test
    void aProviderRetryAfterLongerThanTheMaximumDelayIsDeadLetteredAsDelayOutOfRange() {
        start(RetryPolicy.defaults());
        publish(failure("r-max", "llm-rate-limit", RateLimitState.newBuilder().setLimited(true)
                .setRetryAfterMs(9_223_372_036_854_775_000L).build()));
        publish(AgentResult.newBuilder(failure("r-2312", "llm-rate-limit", RateLimitState.newBuilder().setLimited(true)
                .setRetryAfterMs(9_000_000_000_000L).build())).setTaskId("task-2").build());

        List<ClassifiedOutcome> outcomes = classified.readValuesToList();
        assertThat(outcomes).hasSize(2);
        for (ClassifiedOutcome outcome : outcomes) {
            assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
            assertThat(outcome.getDecision().getRule()).isEqualTo("delay-out-of-range");
            assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
            assertThat(outcome.getRetryDelayMs()).isNull();
            assertThat(outcome.getRetryCount()).isEqualTo(0);
        }
        assertThat(outcomes.get(0).getDecision().getReason()).isEqualTo("delay-out-of-range: provider retry_after "
                + "9223372036854775000 ms (over backoff 5000 ms x 2^0) is longer than retry.max.delay.ms 86400000");
        assertThat(deadLetter.readValuesToList()).extracting(ClassifiedOutcome::getResultId).containsExactly("r-max", "r-2312");
        pipeline.advance(Duration.ofDays(2));
        assertThat(ready.isEmpty()).isTrue();
    }

    @Test
    void seed003AnExhaustedDailyWindowIsOnRetryReadyAtOnceWithTheWindowAndItsReset() {
        start(RetryPolicy.defaults());
        publish(failure("r-1", "rate_limit", RateLimitState.newBuilder().setLimited(true).setWindows(List.of(
                RateLimitWindow.newBuilder().setName("tokens_per_day").setRemaining(0L).setResetsInMs(43_200_000L)
                        .build())).build()));

        List<RetryRequest> due = ready.readValuesToList();
        assertThat(due).hasSize(1);
        assertThat(due.get(0).getAction()).isEqualTo(RetryAction.SWITCH_PROVIDER);
        assertThat(due.get(0).getExhaustedWindow()).isEqualTo("tokens_per_day");
        assertThat(due.get(0).getWindowResetAt()).isEqualTo((T0.plus(Duration.ofHours(12))).toEpochMilli());
        assertThat(due.get(0).getDelayMs()).isZero();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void aProviderRetryAfterOfExactlyTheMaximumDelayIsRetried() {
        start(RetryPolicy.defaults().withMaxDelay(Duration.ofHours(1)));
        publish(failure("r-1", "llm-rate-limit", RateLimitState.newBuilder().setLimited(true)
                .setRetryAfterMs(3_600_000L).build()));

        assertThat(classified.readValue().getRetryDelayMs()).isEqualTo(3_600_000L);
        pipeline.advance(Duration.ofHours(1));
        assertThat(ready.readValue().getDueAt()).isEqualTo((T0.plus(Duration.ofHours(1))).toEpochMilli());
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void ignoredFailuresAreNeitherRetriedNorDeadLettered() {
        start(RetryPolicy.defaults().withClassifier(new Classifier(ErrorPolicy.ignoreToolErrors(), Map.of())));
        publish(failure("r-1", "event-rejected", null));

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.IGNORE);
        assertThat(outcome.getDecision().getReason()).isEqualTo("Tool error ignored by policy");
        pipeline.advance(Duration.ofMinutes(1));
        assertThat(ready.isEmpty()).isTrue();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void seed002AnIgnoredFailureIsTypedIgnoredFailureAndTreatedAsANonError() {
        start(RetryPolicy.defaults().withClassifier(new Classifier(ErrorPolicy.ignoreToolErrors(), Map.of())));
        publish(failure("r-1", "event-rejected", null));

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getResultType()).isEqualTo(ResultType.IGNORED_FAILURE);
        assertThat(outcome.getDecision()).isEqualTo(Decision.newBuilder().setHandling(ErrorHandling.IGNORE)
                .setRule("ignore-tool-errors policy, category tool").setReason("Tool error ignored by policy")
                .setConsecutiveFailures(1).setTotalFailures(1).setMaxRetries(0).build());
        assertThat(outcome.getRetryCount()).isZero();
        pipeline.advance(Duration.ofMinutes(1));
        assertThat(ready.isEmpty()).isTrue();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void seed002TheDecisionOnAToolErrorCarriesTheToolNameOfItsErrorContext() {
        start(RetryPolicy.defaults());
        AgentResult toolError = failure("r-1", "event-unavailable", null);
        ((Failure) toolError.getOutcome()).getError().setToolName("search");
        publish(toolError);

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getDecision()).isEqualTo(Decision.newBuilder().setHandling(ErrorHandling.RETRY)
                .setRule("default policy, code event-unavailable").setReason("Tool error, retrying (1/5)")
                .setConsecutiveFailures(1).setTotalFailures(1).setMaxRetries(5).setAction(RetryAction.WAIT)
                .setToolName("search").build());
        assertThat(((Failure) outcome.getAgentResult().getOutcome()).getError().getToolName()).isEqualTo("search");
    }

    private static AgentResult confidentSuccess(String resultId, double confidence) {
        return AgentResult.newBuilder(success(resultId)).setConfidence(confidence).build();
    }

    @Test
    void seed000ASuccessBelowTheConfidenceThresholdIsRetried() {
        start(RetryPolicy.defaults().withConfidence(new ConfidencePolicy(0.8, null)));
        publish(confidentSuccess("r-1", 0.65));

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getResultType()).isEqualTo(ResultType.SUCCESS);
        assertThat(outcome.getConfidenceCheck()).isEqualTo(ConfidenceCheck.newBuilder().setConfidence(0.65)
                .setThreshold(0.8).setAction(ConfidenceAction.RETRY).setRule("policy.confidence.retry-below=0.8")
                .setReason("Confidence 0.65 below 0.8, retrying (1/5)").build());
        assertThat(outcome.getDecision()).isEqualTo(Decision.newBuilder().setHandling(ErrorHandling.RETRY)
                .setRule("policy.confidence.retry-below=0.8").setReason("Confidence 0.65 below 0.8, retrying (1/5)")
                .setConsecutiveFailures(0).setTotalFailures(0).setMaxRetries(5).setAction(RetryAction.WAIT).build());
        assertThat(outcome.getRetryDelayMs()).isEqualTo(2_000L);
        assertThat(outcome.getRetryCount()).isNull();
        pipeline.advance(Duration.ofSeconds(2));
        RetryRequest retry = ready.readValue();
        assertThat(retry.getErrorCode()).isEqualTo(ConfidencePolicy.LOW_CONFIDENCE);
        assertThat(retry.getNextAttempt()).isEqualTo(1);
        assertThat(retry.getReason()).isEqualTo("Confidence 0.65 below 0.8, retrying (1/5)");

        publish(confidentSuccess("r-2", 0.95));
        ClassifiedOutcome second = classified.readValue();
        assertThat(second.getAttempt()).isEqualTo(1);
        assertThat(second.getDecision()).isNull();
        assertThat(second.getConfidenceCheck()).isNull();
        assertThat(second.getRetryCount()).isEqualTo(1);
        assertThat(deadLetter.isEmpty()).isTrue();
        assertThat(verifications.isEmpty()).isTrue();
    }

    @Test
    void seed000ALowConfidenceSuccessIsRetriedOnlyWithinTheTasksAttempts() {
        start(RetryPolicy.defaults().withConfidence(new ConfidencePolicy(0.8, null)));
        for (int i = 0; i < 5; i++) {
            publish(confidentSuccess("r-" + i, 0.5));
        }

        List<ClassifiedOutcome> outcomes = classified.readValuesToList();
        assertThat(outcomes).extracting(ClassifiedOutcome::getAttempt).containsExactly(0, 1, 2, 3, 4);
        assertThat(outcomes).extracting(o -> o.getConfidenceCheck().getAction()).containsExactly(ConfidenceAction.RETRY,
                ConfidenceAction.RETRY, ConfidenceAction.RETRY, ConfidenceAction.RETRY, ConfidenceAction.ACCEPT);
        assertThat(outcomes.get(4).getDecision()).isNull();
        assertThat(outcomes.get(4).getRetryCount()).isEqualTo(4);
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void seed000AnUncertainSuccessIsRoutedForVerificationWithItsReason() {
        start(RetryPolicy.defaults().withConfidence(new ConfidencePolicy(null, 0.8)));
        publish(confidentSuccess("r-1", 0.65));

        ClassifiedOutcome outcome = classified.readValue();
        ConfidenceCheck verify = ConfidenceCheck.newBuilder().setConfidence(0.65).setThreshold(0.8)
                .setAction(ConfidenceAction.VERIFY).setRule("policy.confidence.verify-below=0.8")
                .setReason("Confidence 0.65 below 0.8: verify with another agent").build();
        assertThat(outcome.getResultType()).isEqualTo(ResultType.SUCCESS);
        assertThat(outcome.getConfidenceCheck()).isEqualTo(verify);
        assertThat(outcome.getDecision()).isNull();
        assertThat(outcome.getRetryCount()).isZero();
        assertThat(verifications.readKeyValuesToList()).containsExactly(KeyValue.pair("task-1", outcome));
        pipeline.advance(Duration.ofMinutes(1));
        assertThat(ready.isEmpty()).isTrue();
        assertThat(deadLetter.isEmpty()).isTrue();
    }

    @Test
    void nodeFinishedFailuresAreRetriedStoppedOrSentToCompensation() {
        start(RetryPolicy.defaults());
        nodeFinished.pipeInput("job-1", NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1")
                .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build(), T0);
        nodeFinished.pipeInput("job-1", NodeFinished.newBuilder().setJobId("job-1").setNodeId("n2")
                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("404").build(), T0);
        nodeFinished.pipeInput("job-1", NodeFinished.newBuilder().setJobId("job-1").setNodeId("n3")
                .setResultType(StepResultType.COMPENSATABLE_FAILURE).setReason("upload failed").build(), T0);
        nodeFinished.pipeInput("job-1", NodeFinished.newBuilder().setJobId("job-1").setNodeId("n4").build(), T0);

        List<KeyValue<String, ClassifiedOutcome>> outcomes = classified.readKeyValuesToList();
        assertThat(outcomes).extracting(kv -> kv.key).containsExactly("job-1/n1", "job-1/n2", "job-1/n3", "job-1/n4");
        assertThat(outcomes).extracting(kv -> kv.value.getResultType()).containsExactly(ResultType.RETRYABLE_FAILURE,
                ResultType.PERMANENT_FAILURE, ResultType.COMPENSATABLE_FAILURE, ResultType.SUCCESS);
        assertThat(outcomes.get(0).value.getDecision().getRule()).isEqualTo("explicit result_type retryable_failure");
        assertThat(outcomes.get(3).value.getReason()).isEqualTo("success (no result_type: an event without one is a success)");
        assertThat(deadLetter.readValuesToList()).extracting(ClassifiedOutcome::getNodeId).containsExactly("n2");
        assertThat(compensations.readKeyValuesToList()).extracting(kv -> kv.key + ":" + kv.value.getNodeId())
                .containsExactly("job-1:n3");
        pipeline.advance(Duration.ofMillis(1_999));
        assertThat(ready.isEmpty()).isTrue();
        pipeline.advance(Duration.ofMillis(1));
        assertThat(ready.readValuesToList()).extracting(RetryRequest::getTaskId).containsExactly("job-1/n1");
    }

    @Test
    void nodeFailuresWithoutAnAttemptNumberAreEachClassifiedAndTheFifthIsDeadLettered() {
        start(RetryPolicy.defaults());
        for (int i = 0; i < 5; i++) {
            nodeFinished.pipeInput("job-1", NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1")
                    .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout " + i).build(), T0.plusSeconds(i));
        }

        List<ClassifiedOutcome> outcomes = classified.readValuesToList();
        assertThat(outcomes).hasSize(5);
        assertThat(outcomes).extracting(ClassifiedOutcome::getAttempt).containsExactly(0, 1, 2, 3, 4);
        assertThat(outcomes).extracting(ClassifiedOutcome::getResultId).doesNotHaveDuplicates();
        assertThat(outcomes).extracting(o -> o.getDecision().getHandling()).containsExactly(ErrorHandling.RETRY,
                ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.RETRY, ErrorHandling.STOP);
        assertThat(deadLetter.readValuesToList()).extracting(o -> o.getDecision().getStopReason())
                .containsExactly(StopReason.RETRY_LIMIT);
    }

    @Test
    void aRedeliveredNodeEventWithItsFinishTimeIsClassifiedOnce() {
        start(RetryPolicy.defaults());
        NodeFinished event = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setTimestamp(T0.toEpochMilli())
                .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build();
        nodeFinished.pipeInput("job-1", event, T0);
        nodeFinished.pipeInput("job-1", event, T0.plusSeconds(1));

        assertThat(classified.readValuesToList()).extracting(ClassifiedOutcome::getResultId)
                .containsExactly("job-1/n1/0/RETRYABLE_FAILURE/" + T0.toEpochMilli());
    }

    @Test
    void aFailureMessageIsRepeatedInTheOutcomeReasonOnlyUpToAThousandCharacters() {
        start(RetryPolicy.defaults());
        String message = "m".repeat(5_000);
        publish(AgentResult.newBuilder(failure("r-1", "llm-refusal", null)).setOutcome(Failure.newBuilder()
                .setError(ErrorInfo.newBuilder().setCode("llm-refusal").setMessage(message).build()).build()).build());

        ClassifiedOutcome outcome = classified.readValue();
        assertThat(outcome.getReason()).isEqualTo("m".repeat(1_000) + "… (cut, 5000 characters)");
        assertThat(((Failure) outcome.getAgentResult().getOutcome()).getError().getMessage()).isEqualTo(message);
    }
}
