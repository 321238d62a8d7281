package io.agentoutcomes.topology.budget;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.analytics.Dimension;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Budgets in the whole pipeline on a TopologyTestDriver: a budget of $1 a day per agent, two agents (standing for two
 * tenants: the tenant dimension is another branch's), results of $0.10 each.
 */
class BudgetTopologyTest {
    private static final Instant DAY_START = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant NEXT_DAY = Instant.parse("2026-03-02T00:00:00Z");

    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> results;
    private TestOutputTopic<String, BudgetAlert> alerts;
    private TestOutputTopic<String, ClassifiedOutcome> outcomes;
    private TestOutputTopic<String, ClassifiedOutcome> deadLetters;
    private int sent;

    private static Budget daily(String value, boolean stopRetries) {
        return new Budget("daily", Dimension.AGENT, value, BudgetPeriod.DAY, new BigDecimal("1.00"),
                Budget.DEFAULT_THRESHOLDS, stopRetries);
    }

    private void start(Budget... budgets) {
        pipeline = StageDriver.of(topics -> AgentOutcomesTopology.build(topics,
                PipelineSettings.builder().budgets(BudgetSettings.of(List.of(budgets), 4)).build(), new Properties()));
        results = pipeline.input(pipeline.topics.agentResults);
        alerts = pipeline.output(pipeline.topics.budgetAlerts);
        outcomes = pipeline.output(pipeline.topics.outcomesClassified);
        deadLetters = pipeline.output(pipeline.topics.deadLetter);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private static AgentResult result(String agent, String id, Object outcome, String usd) {
        return AgentResult.newBuilder().setResultId(id).setAgentId(agent).setTaskId("task-" + id).setDialect(Dialect.NATIVE)
                .setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(usd))).build()).build())
                .setOutcome(outcome).build();
    }

    /** A success of {@code agent} costing $0.10, at {@code time}. */
    private void spend(String agent, String id, Instant time) {
        results.pipeInput("task-" + id, result(agent, id, Success.newBuilder().setData("{}").build(), "0.10"), time);
        sent++;
    }

    /** A retryable failure (a timeout) of {@code agent} costing $0.01, at {@code time}. */
    private void fail(String agent, String id, Instant time) {
        results.pipeInput("task-" + id, result(agent, id,
                Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build(), "0.01"), time);
    }

    private static String usd(BudgetAlert alert, boolean limit) {
        return Money.toDecimal(limit ? alert.getLimit() : alert.getSpend()).stripTrailingZeros().toPlainString();
    }

    @Test
    void twoAgentsCrossingFiftyEightyAndHundredPercentGetExactlyThreeAlertsEachNothingTwiceAfterTheLimit() {
        start(daily(null, false));
        for (int i = 1; i <= 14; i++) {
            spend("a1", "a1-" + i, T0.plusSeconds(i));
            spend("a2", "a2-" + i, T0.plusSeconds(i));
        }

        List<BudgetAlert> all = alerts.readValuesToList();
        Map<String, List<BudgetAlert>> byAgent = all.stream().collect(Collectors.groupingBy(BudgetAlert::getValue));
        assertThat(byAgent).containsOnlyKeys("a1", "a2");
        for (String agent : List.of("a1", "a2")) {
            List<BudgetAlert> mine = byAgent.get(agent);
            assertThat(mine).extracting(BudgetAlert::getThresholdPercent).containsExactly(50, 80, 100);
            assertThat(mine).extracting(alert -> usd(alert, false)).containsExactly("0.5", "0.8", "1");
            assertThat(mine).extracting(BudgetAlert::getResultId).containsExactly(agent + "-5", agent + "-8", agent + "-10");
            assertThat(mine).allSatisfy(alert -> {
                assertThat(alert.getBudget()).isEqualTo("daily");
                assertThat(alert.getDimension()).isEqualTo("agent");
                assertThat(alert.getPeriod()).isEqualTo(BudgetPeriod.DAY);
                assertThat(alert.getPeriodStart()).isEqualTo(DAY_START.toEpochMilli());
                assertThat(alert.getPeriodEnd()).isEqualTo(NEXT_DAY.toEpochMilli());
                assertThat(usd(alert, true)).isEqualTo("1");
            });
            assertThat(mine.get(2).getCrossedAt()).isEqualTo(T0.plusSeconds(10).toEpochMilli());
        }
        assertThat(pipeline.driver.producedTopicNames()).contains(pipeline.topics.budgetAlerts.name());
    }

    @Test
    void oneCostCrossingTwoThresholdsSendsBothAndTheKeyIsTheBudgetAndValue() {
        start(daily(null, false));
        results.pipeInput("t1", result("a1", "big", Success.newBuilder().setData("{}").build(), "0.85"), T0);

        assertThat(alerts.readRecordsToList()).extracting(r -> r.key(), r -> r.value().getThresholdPercent())
                .containsExactly(tuple("daily\u001fa1", 50),
                        tuple("daily\u001fa1", 80));
    }

    @Test
    void aNewPeriodStartsAfreshWhileALateResultOfTheDayBeforeStillCountsThere() {
        start(daily(null, false));
        for (int i = 1; i <= 10; i++) {
            spend("a1", "d1-" + i, T0.plusSeconds(i));
        }
        assertThat(alerts.readValuesToList()).hasSize(3);

        // the next day on the wall clock too: a record stamped ahead of it by more than the input's clock skew is read
        // at the wall clock's time
        pipeline.advance(Duration.between(T0, NEXT_DAY.plus(Duration.ofHours(1))));
        for (int i = 1; i <= 5; i++) {
            spend("a1", "d2-" + i, NEXT_DAY.plus(Duration.ofHours(1)).plusSeconds(i));
        }
        spend("a1", "late", T0.plusSeconds(60));

        List<BudgetAlert> nextDay = alerts.readValuesToList();
        assertThat(nextDay).extracting(BudgetAlert::getThresholdPercent).containsExactly(50);
        assertThat(nextDay.get(0).getPeriodStart()).isEqualTo(NEXT_DAY.toEpochMilli());
        assertThat(usd(nextDay.get(0), false)).isEqualTo("0.5");
        assertThat(pipeline.<String, BudgetState>entries(BudgetStores.SPEND_STORE))
                .singleElement().satisfies(entry -> assertThat(entry.value.getPeriods())
                        .extracting(p -> Money.toDecimal(p.getSpend()).stripTrailingZeros().toPlainString())
                        .containsExactly("1.1", "0.5"));
    }

    @Test
    void aBudgetOfOneValueCountsOnlyThatValue() {
        start(daily("a2", false));
        for (int i = 1; i <= 10; i++) {
            spend("a1", "a1-" + i, T0.plusSeconds(i));
        }
        assertThat(alerts.readValuesToList()).isEmpty();
        for (int i = 1; i <= 5; i++) {
            spend("a2", "a2-" + i, T0.plusSeconds(i));
        }
        assertThat(alerts.readValuesToList()).extracting(BudgetAlert::getValue, BudgetAlert::getThresholdPercent)
                .containsExactly(tuple("a2", 50));
    }

    @Test
    void afterTheBudgetIsExhaustedARetryableFailureOfThatAgentIsDeadLetteredWithBudgetExceededWhileAnotherAgentRetries() {
        start(daily(null, true));
        for (int i = 1; i <= 10; i++) {
            spend("a1", "a1-" + i, T0.plusSeconds(i));
        }
        fail("a2", "a2-fail", T0.plusSeconds(20));
        fail("a1", "a1-fail", T0.plusSeconds(21));

        Map<String, ClassifiedOutcome> byResult = outcomes.readValuesToList().stream()
                .collect(Collectors.toMap(ClassifiedOutcome::getResultId, outcome -> outcome));
        assertThat(byResult.get("a2-fail").getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        ClassifiedOutcome stopped = byResult.get("a1-fail");
        assertThat(stopped.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(stopped.getDecision().getStopReason()).isEqualTo(StopReason.BUDGET_EXCEEDED);
        assertThat(stopped.getDecision().getRule()).isEqualTo("budget.daily.stop-retries=true");
        assertThat(stopped.getDecision().getReason()).isEqualTo("Timeout error, not retried: budget.daily.stop-retries=true, "
                + "budget daily (agent a1) exhausted for the day from 2026-03-01T00:00:00Z: spend 1 USD of limit 1 USD");
        assertThat(deadLetters.readValuesToList()).extracting(ClassifiedOutcome::getResultId).containsExactly("a1-fail");
    }

    @Test
    void theBudgetStopsRetriesOnlyInItsPeriodAndOnlyWhenDeclaredTo() {
        start(daily("a1", true), new Budget("watch", Dimension.MODEL, null, BudgetPeriod.MONTH, new BigDecimal("0.5"),
                List.of(100), false));
        for (int i = 1; i <= 10; i++) {
            spend("a1", "a1-" + i, T0.plusSeconds(i));
        }
        pipeline.advance(Duration.between(T0, NEXT_DAY.plusSeconds(5)));
        fail("a1", "next-day", NEXT_DAY.plusSeconds(5));
        fail("a3", "other", T0.plusSeconds(30));

        assertThat(outcomes.readValuesToList()).filteredOn(o -> !o.getResultId().startsWith("a1-"))
                .extracting(ClassifiedOutcome::getResultId, o -> o.getDecision().getHandling())
                .containsExactly(tuple("next-day", ErrorHandling.RETRY),
                        tuple("other", ErrorHandling.RETRY));
        // the two budgets' keys are on partitions of their own: in order per key, in any order between them
        assertThat(alerts.readValuesToList()).extracting(BudgetAlert::getBudget, BudgetAlert::getThresholdPercent)
                .containsExactlyInAnyOrder(tuple("watch", 100), tuple("daily", 50),
                        tuple("daily", 80), tuple("daily", 100));
    }

    @Test
    void withNoBudgetDeclaredTheStageIsNotBuilt() {
        pipeline = StageDriver.pipeline();
        String description = AgentOutcomesTopology.build(pipeline.topics, PipelineSettings.defaults(), new Properties())
                .describe().toString();
        assertThat(description).doesNotContain("budget");
    }
}
