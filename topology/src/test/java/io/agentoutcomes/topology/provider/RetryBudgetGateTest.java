package io.agentoutcomes.topology.provider;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The retry budget in the whole pipeline, on a TopologyTestDriver whose wall clock the test moves one gate check at a
 * time: rate-limit failures advertising no window (so pacing and circuits let everything go) and successes of a scope.
 */
class RetryBudgetGateTest {
    /** 20 % of the requests and 1 a second over 10 s: a reserve of 10 a window. */
    private static final RetryBudgetSettings BUDGET = new RetryBudgetSettings(true, 20, 1, Duration.ofSeconds(10),
            Duration.ofMinutes(2));
    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> results;
    private TestOutputTopic<String, RetryRequest> ready;
    private TestOutputTopic<String, ClassifiedOutcome> deadLetter;
    private final List<TestRecord<String, RetryRequest>> released = new ArrayList<>();
    private final List<ClassifiedOutcome> stopped = new ArrayList<>();

    private void start(RetryBudgetSettings budget) {
        pipeline = StageDriver.of(topics -> AgentOutcomesTopology.build(topics, PipelineSettings.builder()
                .providers(ProviderGateSettings.defaults().withBudget(budget)).build(), new Properties()));
        results = pipeline.input(pipeline.topics.agentResults);
        ready = pipeline.output(pipeline.topics.retryReady);
        deadLetter = pipeline.output(pipeline.topics.deadLetter);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void run(Duration span) {
        Duration check = ProviderGateSettings.defaults().checkInterval();
        for (long step = 0; step < span.dividedBy(check); step++) {
            pipeline.advance(check);
            released.addAll(ready.readRecordsToList());
            stopped.addAll(deadLetter.readValuesToList());
        }
    }

    private void send(String provider, String prefix, int successes, int failures) {
        for (int i = 0; i < successes; i++) {
            results.pipeInput(prefix + "-ok-" + i, result(provider, prefix + "-ok-" + i, Success.newBuilder().build()), T0);
        }
        for (int i = 0; i < failures; i++) {
            results.pipeInput(prefix + "-" + i, result(provider, prefix + "-" + i,
                    Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-rate-limit").build()).build()), T0);
        }
    }

    private static AgentResult result(String provider, String task, Object outcome) {
        return AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task).setDialect(Dialect.VAT_ENVELOPE)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).setOutcome(outcome).build();
    }

    private List<TestRecord<String, RetryRequest>> of(String provider) {
        return released.stream().filter(r -> r.value().getAgentResult().getExecution().getProvider().equals(provider)).toList();
    }

    /** Releases by the second (from T0) they left at. */
    private static Map<Long, Long> bySecond(List<TestRecord<String, RetryRequest>> records) {
        return records.stream().collect(Collectors.groupingBy(r -> (r.timestamp() - T0.toEpochMilli()) / 1_000, TreeMap::new,
                Collectors.counting()));
    }

    @Test
    void retriesOverTwentyPercentOfRequestsAndTheFloorWaitOldestFirstAndLeaveAsTheWindowAllows() {
        start(BUDGET);
        send("acme", "acme", 100, 100);
        send("other", "other", 0, 5);

        run(Duration.ofSeconds(75));

        List<TestRecord<String, RetryRequest>> acme = of("acme");
        // 200 requests: 20 % is 40, and the reserve 10 a window, at the due time; nothing more while those 50 are in the
        // window and the requests have left it; then the reserve, 10 a window, until all 100 are out
        assertThat(bySecond(acme)).isEqualTo(expectedAcme(acme.get(0)));
        assertThat(acme).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates().hasSize(100);
        assertThat(acme).allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(r.value().getDueAt()));
        assertThat(acme.subList(50, 100)).extracting(r -> r.value().getDueAt()).isSorted();
        // the other provider's 5 retries are within its own reserve, released at their due time
        assertThat(of("other")).hasSize(5).allSatisfy(r -> assertThat(r.timestamp()).isBetween(r.value().getDueAt(),
                r.value().getDueAt() + 100));
        assertThat(stopped).isEmpty();
        // no 10 s window holds more releases than the budget: 40 of the requests and the reserve's 10
        for (TestRecord<String, RetryRequest> first : acme) {
            assertThat(acme.stream().filter(r -> r.timestamp() >= first.timestamp() && r.timestamp() < first.timestamp() + 10_000)
                    .count()).as("released in the 10 s from %d", first.timestamp()).isLessThanOrEqualTo(50);
        }
    }

    /**
     * 50 at the due second; the rest 10 at a time, each when the whole slice of the last release has left the window:
     * a window and a slice (11 s) later.
     */
    private static Map<Long, Long> expectedAcme(TestRecord<String, RetryRequest> first) {
        long due = (first.value().getDueAt() - T0.toEpochMilli()) / 1_000;
        Map<Long, Long> expected = new TreeMap<>();
        expected.put(due, 50L);
        for (int round = 1; round <= 5; round++) {
            expected.put(due + 11L * round, 10L);
        }
        return expected;
    }

    @Test
    void aRetryTheBudgetHoldsLongerThanTheMaxHoldIsStoppedAsRetryBudgetExhaustedOnceAndNeverReleased() {
        start(new RetryBudgetSettings(true, 20, 1, Duration.ofSeconds(10), Duration.ofSeconds(5)));
        send("acme", "acme", 0, 100);

        run(Duration.ofSeconds(30));

        // 100 requests: 20 and the reserve 10 go at the due time; the other 70 wait, the budget spent, and are stopped
        // 5 s later, before the first releases leave the window
        List<TestRecord<String, RetryRequest>> acme = of("acme");
        assertThat(acme).hasSize(30);
        long due = acme.get(0).value().getDueAt();
        assertThat(acme).allSatisfy(r -> assertThat(r.timestamp()).isBetween(due, due + 100));
        assertThat(stopped).hasSize(70).allSatisfy(outcome -> {
            assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
            assertThat(outcome.getDecision().getStopReason()).isEqualTo(StopReason.RETRY_BUDGET_EXHAUSTED);
            assertThat(outcome.getDecision().getRule()).isEqualTo("provider.retry.budget.max.hold.ms=5000");
            assertThat(outcome.getErrorCode()).isEqualTo("llm-rate-limit");
            assertThat(outcome.getAgentResult().getExecution().getProvider()).isEqualTo("acme");
            assertThat(outcome.getClassifiedAt()).isBetween(due + 5_000, due + 5_200);
        });
        assertThat(stopped.get(0).getDecision().getReason()).startsWith("Retry 1 of llm-rate-limit held 5 s past its due "
                + "time: acme/m1's retry budget (20 % of its requests and 1 a second over 10 s) was spent since");
        assertThat(Stream.concat(acme.stream().map(r -> r.value().getTaskId()), stopped.stream().map(ClassifiedOutcome::getTaskId)))
                .doesNotHaveDuplicates().hasSize(100);
    }

    @Test
    void withTheBudgetOffEveryRetryLeavesAtItsDueTime() {
        start(RetryBudgetSettings.off());
        send("acme", "acme", 0, 100);

        run(Duration.ofSeconds(15));

        assertThat(of("acme")).hasSize(100).allSatisfy(r -> assertThat(r.timestamp()).isBetween(r.value().getDueAt(),
                r.value().getDueAt() + 100));
    }
}
