package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LivePartialTest {
    private static final Dimensions KEY = Dimensions.of("agent", "model", "provider");

    /** The tenth as the decimal the confidence is written as: what BigDecimal.valueOf (Double.toString) says. */
    private static int decimalTenth(double confidence) {
        return Math.min(9, BigDecimal.valueOf(confidence).movePointRight(1).intValue());
    }

    @Test
    void aConfidenceFallsInTheTenthItsDecimalSaysWithoutMakingADecimal() {
        for (int k = 0; k <= 10; k++) {
            double exact = k / 10.0;
            for (double d : new double[] {exact, Math.nextUp(exact), Math.nextDown(exact)}) {
                if (d >= 0 && d <= 1) {
                    assertThat(LivePartial.confidenceTenth(d)).as("tenth of %s", d).isEqualTo(decimalTenth(d));
                }
            }
        }
        Random random = new Random(18);
        for (int i = 0; i < 1_000_000; i++) {
            double d = random.nextInt(3) == 0 ? random.nextInt(1001) / 1000.0 : random.nextDouble();
            assertThat(LivePartial.confidenceTenth(d)).as("tenth of %s", d).isEqualTo(decimalTenth(d));
        }
    }

    @Test
    void moneyPastWhatALongHoldsIsStillSummedExactly() {
        BigDecimal big = new BigDecimal("5000000.000000000001");
        LivePartial partial = LivePartial.of(KEY);
        for (int i = 0; i < 3; i++) {
            partial.add(outcome(big));
        }
        partial.add(outcome(new BigDecimal("0.000000000001")));

        AgentMetrics metrics = partial.toMetrics();

        assertThat(metrics.getCostTotal()).isEqualTo(new BigDecimal("15000000.000000000004"));
        assertThat(metrics.getCompletions()).containsEntry("SUCCESS", 4L).hasSize(1);
    }

    @Test
    void aPartialGoingOnFromAStoredAggregateAddsToIt() {
        AgentMetrics stored = LivePartial.of(KEY).add(outcome(new BigDecimal("0.25"))).toMetrics();

        AgentMetrics metrics = LivePartial.from(KEY, stored).add(outcome(new BigDecimal("0.5"))).toMetrics();

        assertThat(metrics.getCostTotal()).isEqualByComparingTo("0.75");
        assertThat(metrics.getAttempts()).isEqualTo(2L);
        assertThat(metrics.getDurationCount()).isEqualTo(2L);
        assertThat(metrics.getDurationSumMs()).isEqualTo(2_400L);
    }

    private static ClassifiedOutcome outcome(BigDecimal cost) {
        AgentResult result = AgentResult.newBuilder().setResultId("r").setAgentId("agent").setTaskId("t")
                .setExecution(ExecutionMetadata.newBuilder().setModel("model").setProvider("provider").setDurationMs(1_200L)
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(cost)).setSource(CostSource.REPORTED).build())
                        .build())
                .setOutcome(Success.newBuilder().build()).build();
        return ClassifiedOutcome.newBuilder().setTaskId("t").setResultId("r").setAttempt(0).setResultType(ResultType.SUCCESS)
                .setReason("ok").setClassifiedAt(0L).setRetryCount(0).setAgentResult(result).build();
    }
}
