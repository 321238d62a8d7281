package io.agentoutcomes.topology.classify;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The classification stage alone: agent-results through a {@link TaskClassifier} to outcomes-classified. */
class TaskClassifierTest {
    private static final Duration RETENTION = Duration.ofMinutes(10);
    private static final Duration SWEEP = Duration.ofMinutes(1);

    private final StageDriver stage = StageDriver.stage((builder, topics) -> ClassifyTopology.classify(
                    builder.stream(topics.agentResults.name(), Consumed.with(topics.agentResults.keySerde(),
                            topics.agentResults.valueSerde())),
                    TaskKind.AGENT_RESULTS, TaskClassifier.AGENT_TASKS_STORE, "classify", RetryPolicy.defaults(),
                    new TaskRetention(RETENTION, SWEEP, 3), BudgetGuard.Factory.NONE)
            .to(topics.outcomesClassified.name(), topics.outcomesClassified.produced()));
    private final TestInputTopic<String, AgentResult> results = stage.input(stage.topics.agentResults);
    private final TestOutputTopic<String, ClassifiedOutcome> outcomes = stage.output(stage.topics.outcomesClassified);
    private Instant now = T0;

    @AfterEach
    void close() {
        stage.close();
    }

    private static AgentResult success(String task, String resultId) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId(task)
                .setOutcome(Success.newBuilder().build()).build();
    }

    private static AgentResult rateLimited(String task, String resultId, long retryAfterMs) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId(task)
                .setRateLimit(RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(retryAfterMs).build())
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-rate-limit").build()).build())
                .build();
    }

    private void publish(AgentResult result) {
        results.pipeInput(new TestRecord<>(result.getTaskId(), result, now));
    }

    private void elapse(Duration duration) {
        now = now.plus(duration);
        stage.advance(duration);
    }

    private KeyValueStore<String, byte[]> tasks() {
        return stage.driver.getKeyValueStore(TaskClassifier.AGENT_TASKS_STORE);
    }

    private long storedTasks() {
        long count = 0;
        try (var all = tasks().all()) {
            while (all.hasNext()) {
                all.next();
                count++;
            }
        }
        return count;
    }

    @Test
    void aDuplicateInsideTheHorizonIsProcessedOnceAndLeavesTheStateAsItWas() {
        publish(success("task-1", "r-1"));
        byte[] before = tasks().get("task-1");
        elapse(RETENTION.minusMinutes(1));
        publish(success("task-1", "r-1"));

        assertThat(outcomes.readValuesToList()).extracting(ClassifiedOutcome::getResultId).containsExactly("r-1");
        assertThat(tasks().get("task-1")).isEqualTo(before);
    }

    @Test
    void aFinishedTaskIsForgottenAfterTheHorizonAndItsEntryDeletedWithATombstone() {
        publish(success("task-1", "r-1"));
        elapse(RETENTION.plus(SWEEP));

        assertThat(tasks().get("task-1")).isNull();
        List<TestRecord<String, byte[]>> changelog = stage.driver.createOutputTopic(
                StageDriver.APPLICATION_ID + "-" + TaskClassifier.AGENT_TASKS_STORE + "-changelog", new StringDeserializer(),
                new ByteArrayDeserializer()).readRecordsToList();
        assertThat(changelog).extracting(TestRecord::key).containsExactly("task-1", "task-1");
        assertThat(changelog.get(1).value()).isNull();
        // Past the horizon a re-send is a new result.
        publish(success("task-1", "r-1"));
        assertThat(outcomes.readValuesToList()).extracting(ClassifiedOutcome::getResultId).containsExactly("r-1", "r-1");
    }

    @Test
    void aTaskStillRetryingIsKeptUntilTheHorizonAfterItsRetryIsDueAndCountsOn() {
        publish(rateLimited("task-1", "r-1", Duration.ofHours(1).toMillis()));
        elapse(Duration.ofMinutes(30)); // three horizons, but the retry is due in an hour
        assertThat(tasks().get("task-1")).isNotNull();
        elapse(Duration.ofMinutes(31));
        publish(rateLimited("task-1", "r-2", 1_000));

        List<ClassifiedOutcome> all = outcomes.readValuesToList();
        assertThat(all).extracting(ClassifiedOutcome::getAttempt).containsExactly(0, 1);
        assertThat(all).extracting(ClassifiedOutcome::getResultType)
                .containsExactly(ResultType.RETRYABLE_FAILURE, ResultType.RETRYABLE_FAILURE);
        assertThat(all.get(1).getDecision().getConsecutiveFailures()).isEqualTo(2);
    }

    @Test
    void theStoreStaysFlatOverTenHorizonsOfOneShotTasks() {
        // 20 one-shot tasks a minute for 100 minutes (ten horizons); sweeps examine four entries per task added since
        // the last, so they keep pace.
        List<Long> sizes = new ArrayList<>();
        int task = 0;
        for (int minute = 0; minute < 100; minute++) {
            for (int i = 0; i < 20; i++) {
                publish(success("task-" + task, "r-" + task));
                task++;
            }
            elapse(Duration.ofMinutes(1));
            if (minute >= 20) {
                sizes.add(storedTasks());
            }
        }
        // About one horizon of tasks (200, less the minute's batch that has just expired) and the expired a sweep has
        // not reached yet (at most a quarter horizon more); the same in the tenth horizon as in the third.
        assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(180L, 250L));
        assertThat(outcomes.readValuesToList()).hasSize(2000);
    }

    private static AgentResult llmTimeout(String task, String resultId) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("agent-1").setTaskId(task)
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build())
                .build();
    }

    private void publishRedriven(AgentResult result, String redriveId) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(HeaderNames.REDRIVE_ID, redriveId.getBytes(StandardCharsets.UTF_8));
        results.pipeInput(new TestRecord<>(result.getTaskId(), result, headers, now));
    }

    private void stopAtTheRetryLimit(String task) {
        for (int i = 1; i <= 5; i++) {
            publish(llmTimeout(task, "r-" + i));
        }
        assertThat(outcomes.readValuesToList()).last().extracting(o -> o.getDecision().getStopReason())
                .isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void aStoppedTasksFailureWithoutARedriveStopsAgain() {
        stopAtTheRetryLimit("task-1");
        publish(llmTimeout("task-1", "r-6"));

        ClassifiedOutcome again = outcomes.readValue();
        assertThat(again.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(again.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void aRedrivenReRunOfAStoppedTaskStartsAFreshAttemptBudgetOncePerRedrive() {
        stopAtTheRetryLimit("task-1");
        publishRedriven(llmTimeout("task-1", "re-0"), "redrive-1");
        publishRedriven(llmTimeout("task-1", "re-1"), "redrive-1");
        publishRedriven(llmTimeout("task-1", "re-0"), "redrive-1");

        List<ClassifiedOutcome> rerun = outcomes.readValuesToList();
        assertThat(rerun).extracting(ClassifiedOutcome::getResultId).containsExactly("re-0", "re-1");
        assertThat(rerun).extracting(ClassifiedOutcome::getAttempt).containsExactly(0, 1);
        assertThat(rerun).extracting(o -> o.getDecision().getHandling()).containsExactly(ErrorHandling.RETRY, ErrorHandling.RETRY);
        assertThat(rerun).extracting(o -> o.getDecision().getConsecutiveFailures()).containsExactly(1, 2);
        assertThat(rerun).extracting(o -> o.getDecision().getTotalFailures()).containsExactly(6, 7);
    }

    @Test
    void aRedriveIdAlreadyAppliedDoesNotRestartTheTaskOnceItStopsAgain() {
        stopAtTheRetryLimit("task-1");
        for (int i = 0; i < 5; i++) {
            publishRedriven(llmTimeout("task-1", "re-" + i), "redrive-1");
        }
        assertThat(outcomes.readValuesToList()).last().extracting(o -> o.getDecision().getStopReason())
                .isEqualTo(StopReason.RETRY_LIMIT);
        publishRedriven(llmTimeout("task-1", "re-5"), "redrive-1");
        publishRedriven(llmTimeout("task-1", "again-0"), "redrive-2");

        List<ClassifiedOutcome> after = outcomes.readValuesToList();
        assertThat(after).extracting(o -> o.getDecision().getHandling()).containsExactly(ErrorHandling.STOP, ErrorHandling.RETRY);
        assertThat(after).extracting(ClassifiedOutcome::getAttempt).containsExactly(5, 0);
    }
}
