package io.agentoutcomes.app.redrive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RedriveFilterTest {
    private static final Instant STOPPED = Instant.parse("2026-03-01T12:00:00Z");

    private static ClassifiedOutcome deadLetter() {
        return ClassifiedOutcome.newBuilder().setTaskId("task-1").setResultId("r-1").setAgentId("photo-analyzer")
                .setAttempt(4).setResultType(ResultType.RETRYABLE_FAILURE).setErrorCode("llm-timeout").setReason("timeout")
                .setDecision(Decision.newBuilder().setHandling(ErrorHandling.STOP).setRule("default policy")
                        .setReason("Timeout error after 5 consecutive failures (max: 5)").setConsecutiveFailures(5)
                        .setTotalFailures(5).setMaxRetries(5).setStopReason(StopReason.RETRY_LIMIT).build())
                .setClassifiedAt(STOPPED.toEpochMilli())
                .setAgentResult(AgentResult.newBuilder().setResultId("r-1").setAgentId("photo-analyzer").setTaskId("task-1")
                        .setExecution(ExecutionMetadata.newBuilder().setProvider("anthropic").build())
                        .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build())
                        .build())
                .build();
    }

    @Test
    void everyFilterGivenMustMatch() {
        assertThat(RedriveFilter.any().matches(deadLetter())).isTrue();
        assertThat(RedriveFilter.parse("llm-timeout", "photo-analyzer", "anthropic", "retry_limit",
                "2026-03-01T12:00:00Z", "2026-03-01T12:00:00.001Z").matches(deadLetter())).isTrue();
        assertThat(RedriveFilter.parse("llm-refusal", null, null, null, null, null).matches(deadLetter())).isFalse();
        assertThat(RedriveFilter.parse(null, "other-agent", null, null, null, null).matches(deadLetter())).isFalse();
        assertThat(RedriveFilter.parse(null, null, "openai", null, null, null).matches(deadLetter())).isFalse();
        assertThat(RedriveFilter.parse(null, null, null, "ERROR", null, null).matches(deadLetter())).isFalse();
    }

    @Test
    void theTimeRangeIncludesFromAndExcludesTo() {
        assertThat(RedriveFilter.parse(null, null, null, null, "2026-03-01T12:00:00.001Z", null).matches(deadLetter())).isFalse();
        assertThat(RedriveFilter.parse(null, null, null, null, null, "2026-03-01T12:00:00Z").matches(deadLetter())).isFalse();
    }

    @Test
    void blankFiltersAreNoFiltersAndTheDescriptionNamesThoseGiven() {
        RedriveFilter filter = RedriveFilter.parse(" ", "", "anthropic", null, "2026-03-01T00:00:00Z", null);
        assertThat(filter.describe()).isEqualTo("provider=anthropic from=2026-03-01T00:00:00Z");
        assertThat(RedriveFilter.any().describe()).isEqualTo("(all)");
    }

    @Test
    void badFiltersSayWhatIsWrong() {
        assertThatThrownBy(() -> RedriveFilter.parse(null, null, null, "tired", null, null))
                .hasMessage("stop reason 'tired' is not one of [COMPLETED, STEPS_LIMIT, TOKEN_LIMIT, TIME_LIMIT, RETRY_LIMIT, "
                        + "ERROR, FINISH_REASON, GUARD, USER_REQUESTED, BUDGET_EXCEEDED, RETRY_BUDGET_EXHAUSTED]");
        assertThatThrownBy(() -> RedriveFilter.parse(null, null, null, null, "yesterday", null))
                .hasMessage("from 'yesterday' is not an ISO-8601 instant, e.g. 2026-03-01T12:00:00Z");
        assertThatThrownBy(() -> RedriveFilter.parse(null, null, null, null, "2026-03-02T00:00:00Z", "2026-03-01T00:00:00Z"))
                .hasMessage("from (2026-03-02T00:00:00Z) must be before to (2026-03-01T00:00:00Z)");
        assertThatThrownBy(() -> RedriveFilter.parse(null, "a".repeat(257), null, null, null, null))
                .hasMessage("agent is 257 characters, more than 256");
    }
}
