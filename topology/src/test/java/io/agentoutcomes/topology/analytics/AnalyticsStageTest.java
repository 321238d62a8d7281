package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.StageDriver.T0;
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
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.StageDriver;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The analytics stage alone ({@link PreAggregator}, the repartition, {@link WindowMerger}): classified outcomes and
 * continuation events in, exact 1-minute and 1-hour aggregates out.
 */
class AnalyticsStageTest {
    private static final Duration FLUSH = Duration.ofSeconds(1);
    private static final Duration GRACE = Duration.ofMinutes(5);

    private final StageDriver stage = StageDriver.stage((builder, topics) -> AnalyticsTopology.build(builder, topics,
            builder.stream(topics.outcomesClassified.name(), topics.outcomesClassified.consumed()),
            builder.stream(topics.continuationEvents.name(), topics.continuationEvents.consumed()),
            new AnalyticsSettings(FLUSH, GRACE, 1000, true)));
    private final TestInputTopic<String, ClassifiedOutcome> outcomes = stage.input(stage.topics.outcomesClassified);
    private final TestInputTopic<String, ContinuationEvaluated> continuations = stage.input(stage.topics.continuationEvents);
    private final TestOutputTopic<String, AgentMetrics> minutes = stage.output(stage.topics.agentMetrics1m);
    private final TestOutputTopic<String, AgentMetrics> hours = stage.output(stage.topics.agentMetrics1h);
    private int sequence;

    @AfterEach
    void close() {
        stage.close();
    }

    private static String key(String size, Instant start, String agent, String model, String provider) {
        return new WindowKey(WindowSize.of(size), start.toEpochMilli(),
                Dimensions.of(agent, model, provider, Dimensions.UNKNOWN)).encode();
    }

    private static String key(String size, Instant start) {
        return key(size, start, "summarizer", "gpt-4o-mini", "openai");
    }

    private static Decision decision(ErrorHandling handling, StopReason stop) {
        return Decision.newBuilder().setHandling(handling).setRule("test").setReason("test").setConsecutiveFailures(1)
                .setTotalFailures(1).setMaxRetries(5).setStopReason(stop).build();
    }

    /** An agent's classified outcome at {@code at}, with its cost (USD), tokens and duration. */
    private void publish(Instant at, ResultType type, String errorCode, Decision decision, Integer retryCount, String cost,
                         long inputTokens, long outputTokens, long durationMs) {
        String id = "r-" + sequence++;
        AgentResult result = AgentResult.newBuilder().setResultId(id).setAgentId("summarizer").setTaskId("task-" + id)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai")
                        .setDurationMs(durationMs)
                        .setUsage(Usage.newBuilder().setInputTokens(inputTokens).setOutputTokens(outputTokens).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(cost).setScale(12))).setSource(CostSource.REPORTED)
                                .build())
                        .build())
                .setOutcome(errorCode == null ? Success.newBuilder().build()
                        : Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(errorCode).build()).build())
                .build();
        outcomes.pipeInput("task-" + id, ClassifiedOutcome.newBuilder().setTaskId("task-" + id).setResultId(id)
                .setAgentId("summarizer").setAttempt(0).setResultType(type).setErrorCode(errorCode).setReason("test")
                .setDecision(decision).setRetryCount(retryCount).setClassifiedAt(at.toEpochMilli()).setAgentResult(result).build(), at);
    }

    private void success(Instant at, String cost) {
        publish(at, ResultType.SUCCESS, null, null, null, cost, 1, 1, 10);
    }

    private void continuation(Instant at, boolean shouldContinue, StopReason stop) {
        continuations.pipeInput("planner", ContinuationEvaluated.newBuilder().setAgentId("planner").setStep(3)
                .setShouldContinue(shouldContinue).setStopReason(stop).setResolvedBy("aggregate").build(), at);
    }

    /** The latest aggregate published per window key, in the order the keys first appeared. */
    private static Map<String, AgentMetrics> latest(TestOutputTopic<String, AgentMetrics> topic) {
        Map<String, AgentMetrics> latest = new LinkedHashMap<>();
        for (KeyValue<String, AgentMetrics> window : topic.readKeyValuesToList()) {
            latest.put(window.key, window.value);
        }
        return latest;
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount).setScale(12);
    }

    @Test
    void classifiedOutcomesAreSummedExactlyPerMinuteAndTheHourIsTheSumOfItsMinutes() {
        publish(T0.plusSeconds(5), ResultType.SUCCESS, null, null, null, "0.1", 100, 10, 200);
        publish(T0.plusSeconds(50), ResultType.PERMANENT_FAILURE, "llm-refusal",
                decision(ErrorHandling.STOP, StopReason.ERROR), null, "0.2", 50, 5, 400);
        publish(T0.plusSeconds(65), ResultType.RETRYABLE_FAILURE, "llm-timeout",
                decision(ErrorHandling.RETRY, null), null, "0.000000000001", 1, 1, 10);
        publish(T0.plusSeconds(150), ResultType.SUCCESS, null, null, 1, "0.3", 7, 3, 100);
        stage.advance(FLUSH);

        Map<String, AgentMetrics> byMinute = latest(minutes);
        assertThat(byMinute).containsOnlyKeys(key("1m", T0), key("1m", T0.plusSeconds(60)), key("1m", T0.plusSeconds(120)));
        AgentMetrics first = byMinute.get(key("1m", T0));
        assertThat(first.getWindowStart()).isEqualTo(T0.toEpochMilli());
        assertThat(first.getWindowEnd()).isEqualTo(T0.plusSeconds(60).toEpochMilli());
        assertThat(first.getWindowClosed()).isFalse();
        assertThat(first.getCompletions()).isEqualTo(Map.of("SUCCESS", 1L, "PERMANENT_FAILURE", 1L));
        assertThat(first.getAttempts()).isEqualTo(2);
        assertThat(first.getRetries()).isZero();
        assertThat(first.getDeadLetters()).isEqualTo(Map.of("ERROR", 1L));
        assertThat(first.getFailuresByErrorCode()).isEqualTo(Map.of("llm-refusal", 1L));
        assertThat(first.getCostTotal()).isEqualTo(usd("0.3"));
        assertThat(first.getInputTokens()).isEqualTo(150);
        assertThat(first.getOutputTokens()).isEqualTo(15);
        assertThat(first.getTotalTokens()).isEqualTo(165);
        assertThat(first.getDurationCount()).isEqualTo(2);
        assertThat(first.getDurationSumMs()).isEqualTo(600);
        AgentMetrics second = byMinute.get(key("1m", T0.plusSeconds(60)));
        assertThat(second.getCompletions()).isEqualTo(Map.of("RETRYABLE_FAILURE", 1L));
        assertThat(second.getRetries()).isEqualTo(1);
        assertThat(second.getDeadLetters()).isEmpty();
        assertThat(second.getCostTotal()).isEqualTo(new BigDecimal("0.000000000001"));
        assertThat(second.getTotalTokens()).isEqualTo(2);
        AgentMetrics third = byMinute.get(key("1m", T0.plusSeconds(120)));
        assertThat(third.getRetryCounts()).isEqualTo(Map.of("1", 1L));
        assertThat(third.getCostTotal()).isEqualTo(usd("0.3"));
        assertThat(third.getDurationSumMs()).isEqualTo(100);

        Map<String, AgentMetrics> byHour = latest(hours);
        assertThat(byHour).containsOnlyKeys(key("1h", T0));
        AgentMetrics hour = byHour.get(key("1h", T0));
        assertThat(hour.getWindowStart()).isEqualTo(T0.toEpochMilli());
        assertThat(hour.getWindowEnd()).isEqualTo(T0.plusSeconds(3600).toEpochMilli());
        assertThat(hour.getCompletions())
                .isEqualTo(Map.of("SUCCESS", 2L, "PERMANENT_FAILURE", 1L, "RETRYABLE_FAILURE", 1L));
        assertThat(hour.getCostTotal()).isEqualTo(new BigDecimal("0.600000000001"));
        assertThat(hour.getInputTokens()).isEqualTo(158);
        assertThat(hour.getTotalTokens()).isEqualTo(177);
        assertThat(hour.getDurationSumMs()).isEqualTo(710);
        assertThat(hour).usingRecursiveComparison()
                .comparingOnlyFields("completions", "attempts", "retries", "ignoredFailures", "retryCounts",
                        "deadLetters", "failuresByErrorCode", "continuationStops", "inputTokens", "outputTokens",
                        "totalTokens", "costTotal", "durationCount", "durationSumMs")
                .as("the hour is the sum of its minutes")
                .isEqualTo(MetricsAggregator.merge(MetricsAggregator.merge(first, second), third));
    }

    @Test
    void partialsAreSentOnOnlyOnceTheFlushIntervalHasPassed() {
        success(T0.plusSeconds(5), "0.25");
        stage.advance(FLUSH.minusMillis(1));
        assertThat(minutes.isEmpty()).isTrue();
        assertThat(hours.isEmpty()).isTrue();

        stage.advance(Duration.ofMillis(1));
        assertThat(minutes.readValuesToList()).extracting(AgentMetrics::getCostTotal).containsExactly(usd("0.25"));
        assertThat(hours.readValuesToList()).extracting(AgentMetrics::getCostTotal).containsExactly(usd("0.25"));
    }

    @Test
    void continuationStopsAreCountedByReasonUnderTheAgentAndContinuingEventsAreNot() {
        continuation(T0.plusSeconds(5), false, StopReason.STEPS_LIMIT);
        continuation(T0.plusSeconds(6), true, StopReason.COMPLETED);
        continuation(T0.plusSeconds(7), false, StopReason.STEPS_LIMIT);
        continuation(T0.plusSeconds(8), false, StopReason.TOKEN_LIMIT);
        stage.advance(FLUSH);

        Map<String, AgentMetrics> byMinute = latest(minutes);
        assertThat(byMinute).containsOnlyKeys(key("1m", T0, "planner", "unknown", "unknown"));
        AgentMetrics window = byMinute.get(key("1m", T0, "planner", "unknown", "unknown"));
        assertThat(window.getContinuationStops()).isEqualTo(Map.of("STEPS_LIMIT", 2L, "TOKEN_LIMIT", 1L));
        assertThat(window.getCompletions()).isEmpty();
        assertThat(window.getAttempts()).isZero();
        assertThat(latest(hours).get(key("1h", T0, "planner", "unknown", "unknown")).getContinuationStops())
                .isEqualTo(Map.of("STEPS_LIMIT", 2L, "TOKEN_LIMIT", 1L));
    }

    /** A workflow node's classified outcome at {@code at}. */
    private void node(Instant at, String node, ResultType type, StepResultType stepType, Decision decision) {
        outcomes.pipeInput("job-1/" + node, ClassifiedOutcome.newBuilder().setTaskId("job-1/" + node)
                .setResultId("job-1/" + node + "/0").setJobId("job-1").setNodeId(node).setAttempt(0).setResultType(type)
                .setReason("test").setDecision(decision).setClassifiedAt(at.toEpochMilli())
                .setNodeFinished(NodeFinished.newBuilder().setJobId("job-1").setNodeId(node).setResultType(stepType)
                        .setDurationMs(300L).build())
                .build(), at);
    }

    @Test
    void workflowNodeOutcomesAreCountedUnderTheWorkflowAgentLikeAnAgentsOutcomes() {
        node(T0, "n1", ResultType.SUCCESS, StepResultType.SUCCESS, null);
        node(T0.plusSeconds(1), "n2", ResultType.RETRYABLE_FAILURE, StepResultType.RETRYABLE_FAILURE,
                decision(ErrorHandling.RETRY, null));
        node(T0.plusSeconds(2), "n3", ResultType.PERMANENT_FAILURE, StepResultType.PERMANENT_FAILURE,
                decision(ErrorHandling.STOP, StopReason.ERROR));
        node(T0.plusSeconds(3), "n4", ResultType.COMPENSATABLE_FAILURE, StepResultType.COMPENSATABLE_FAILURE,
                decision(ErrorHandling.STOP, StopReason.ERROR));
        stage.advance(FLUSH.multipliedBy(3));

        // every outcome on outcomes-classified, every retry on retry-delay, every dead letter counted: nodes' too
        String workflow = key("1m", T0, "_workflow", "unknown", "unknown");
        Map<String, AgentMetrics> byMinute = latest(minutes);
        assertThat(byMinute).containsOnlyKeys(workflow);
        AgentMetrics window = byMinute.get(workflow);
        assertThat(window.getCompletions()).isEqualTo(Map.of("SUCCESS", 1L, "RETRYABLE_FAILURE", 1L,
                "PERMANENT_FAILURE", 1L, "COMPENSATABLE_FAILURE", 1L));
        assertThat(window.getRetries()).isEqualTo(1);
        assertThat(window.getDeadLetters()).isEqualTo(Map.of("ERROR", 1L));
        assertThat(window.getCostTotal()).isEqualTo(usd("0"));
        assertThat(window.getTotalTokens()).isZero();
        assertThat(latest(hours).get(key("1h", T0, "_workflow", "unknown", "unknown")).getRetries()).isEqualTo(1);
    }

    @Test
    void aMinuteIsClosedAfterItsGraceAndALatePartialForItIsDroppedAndCountedWhileItsHourStillTakesIt() {
        success(T0.plusSeconds(5), "0.1");
        stage.advance(FLUSH);
        // the wall clock where the next records are: a task's progress never runs ahead of it
        stage.advance(GRACE.plusSeconds(120));
        success(T0.plus(GRACE).plusSeconds(120), "0.2");
        stage.advance(FLUSH);
        success(T0.plus(GRACE).plusSeconds(121), "0.2");
        stage.advance(FLUSH);

        Map<String, AgentMetrics> closing = latest(minutes);
        assertThat(closing.get(key("1m", T0)).getWindowClosed()).isTrue();
        assertThat(closing.get(key("1m", T0)).getCostTotal()).isEqualTo(usd("0.1"));
        assertThat(latest(hours).get(key("1h", T0)).getCostTotal()).isEqualTo(usd("0.5"));

        success(T0.plusSeconds(20), "0.4");
        stage.advance(FLUSH);

        assertThat(latest(minutes)).doesNotContainKey(key("1m", T0));
        assertThat(stage.metricTotal("stream-agent-outcomes-analytics-metrics", "late-partials-dropped-total",
                "agent-outcomes-analytics-id", WindowMerger.WINDOWS_STORE)).isEqualTo(1.0);
        assertThat(latest(hours).get(key("1h", T0)).getCostTotal()).isEqualTo(usd("0.9"));
        assertThat(stage.<String, AgentMetrics>entries(WindowMerger.WINDOWS_STORE))
                .filteredOn(entry -> entry.key.equals(key("1m", T0)))
                .extracting(entry -> entry.value.getCostTotal()).containsExactly(usd("0.1"));
    }
}
