package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TaskAttempts;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Seed 002's ErrorContext: consecutive failures (since the last success) and total failures (all of the task's). */
class Seed002ErrorContextTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private static AgentResult result(String id, boolean failed) {
        return AgentResult.newBuilder().setResultId(id).setAgentId("a").setTaskId("t")
                .setOutcome(failed ? Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build()
                        : Success.newBuilder().build())
                .build();
    }

    @Test
    void seed002ConsecutiveFailuresResetOnASuccessTotalFailuresDoNot() {
        TaskAttempts state = TaskAttempts.newBuilder().build();
        ClassifiedOutcome last = null;
        String[] history = {"fail", "fail", "success", "fail"};
        for (int i = 0; i < history.length; i++) {
            last = Classification.classify(result("r-" + i, history[i].equals("fail")), state, RetryPolicy.defaults(), NOW,
                    new Random(1));
            state = TaskMemory.next(state, last);
        }

        assertThat(last.getDecision().getConsecutiveFailures()).isEqualTo(1);
        assertThat(last.getDecision().getTotalFailures()).isEqualTo(3);
        assertThat(last.getDecision().getReason()).isEqualTo("Timeout error, retrying (1/5)");
    }
}
