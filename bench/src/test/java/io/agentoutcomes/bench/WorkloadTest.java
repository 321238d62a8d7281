package io.agentoutcomes.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The benchmark's records must take the path they are meant to measure: normalized, never rejected. */
class WorkloadTest {

    @ParameterizedTest
    @CsvSource({"json-vat, VAT_ENVELOPE", "json-flatagents, FLATAGENTS", "json-review, REVIEW_AGENT"})
    void everyJsonRecordNormalizesInItsOwnDialectWithTheSameIdentity(String input, Dialect dialect) {
        for (long i = 0; i < 30; i++) {
            AgentResult result = Workload.checkNormalizes(Workload.Input.of(input), i);
            AgentResult avro = Workload.avro(i, 1000);
            assertThat(result.getDialect()).isEqualTo(dialect);
            assertThat(result.getResultId()).isEqualTo(avro.getResultId());
            assertThat(result.getAgentId()).isEqualTo(avro.getAgentId());
            assertThat(result.getTaskId()).isEqualTo(avro.getTaskId());
            assertThat(result.getOutcome()).isInstanceOf(Workload.failure(i) ? Failure.class : Success.class);
            assertThat(Money.toDecimal(result.getExecution().getCost().getTotal())).isEqualByComparingTo(new BigDecimal("0.00012"));
        }
    }

    @Test
    void oneInTenIsAFailureAndTaskIdsCycleOverTheDistinctTasks() {
        assertThat(Workload.avro(10, 1000).getOutcome()).isInstanceOf(Failure.class);
        assertThat(Workload.avro(11, 1000).getOutcome()).isInstanceOf(Success.class);
        assertThat(Workload.avro(1003, 1000).getTaskId()).isEqualTo("task-3");
        assertThat(Workload.avro(1003, 1_000_000).getTaskId()).isEqualTo("task-1003");
    }
}
