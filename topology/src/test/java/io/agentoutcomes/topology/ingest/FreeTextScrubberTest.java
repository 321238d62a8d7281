package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationDecision;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every free-text field of an accepted record is scrubbed by the bounds check, and nothing else is touched. */
class FreeTextScrubberTest {
    private static final String LEAK = "Authorization: Bearer tok-123";
    private static final String CLEAN = "Authorization: [redacted]";

    private static AgentResult.Builder result(Object outcome) {
        return AgentResult.newBuilder().setResultId("r-1").setAgentId("agent-1").setTaskId("task-1").setOutcome(outcome);
    }

    private static Finding finding() {
        return Finding.newBuilder().setSeverity(Severity.ERROR).setFile("app.py").setLine(3)
                .setMessage("hard-coded " + LEAK).setSuggestion("drop api_key=abc123").setRuleId("S2068")
                .setMetadata("{\"password\":\"hunter2\"}").build();
    }

    @Test
    void everyFreeTextFieldOfASuccessIsScrubbedAndIdentitiesAreKept() {
        AgentResult result = result(Success.newBuilder().setData("{\"token\":\"t\",\"api_key\":\"sk-live-abcdef\"}")
                .setContent("use " + LEAK).setFindings(List.of(finding())).setWarnings(List.of("ok", "key=AIza" + "x".repeat(35)))
                .setFinishReason("stop").build())
                .setReply("Your Set-Cookie: sid=abc; Path=/").setSessionState("{\"session_id\":\"s-9\",\"step\":2}")
                .setMetadata("{\"secret\":\"x\",\"files\":3}").setRateLimit(RateLimitState.newBuilder()
                        .setRetryAfterHeader("retry-after: 30").setWindows(List.of(RateLimitWindow.newBuilder().setName("rpm")
                                .setHeader("x-ratelimit-remaining: 0 Bearer tok-9").build())).build())
                .setAgentId("agent-sk-live-abcdef").build();

        InputBounds.check(result);

        Success success = (Success) result.getOutcome();
        assertThat(success.getData()).isEqualTo("{\"token\":\"t\",\"api_key\":\"[redacted]\"}");
        assertThat(success.getContent()).isEqualTo("use " + CLEAN);
        assertThat(success.getWarnings()).containsExactly("ok", "key=[redacted]");
        assertThat(success.getFinishReason()).isEqualTo("stop");
        Finding finding = success.getFindings().get(0);
        assertThat(List.of(finding.getMessage(), finding.getSuggestion(), finding.getMetadata(), finding.getRuleId()))
                .containsExactly("hard-coded " + CLEAN, "drop api_key=[redacted]", "{\"password\":\"[redacted]\"}", "S2068");
        assertThat(result.getReply()).isEqualTo("Your Set-Cookie: [redacted]");
        assertThat(result.getSessionState()).isEqualTo("{\"session_id\":\"[redacted]\",\"step\":2}");
        assertThat(result.getMetadata()).isEqualTo("{\"secret\":\"[redacted]\",\"files\":3}");
        assertThat(result.getRateLimit().getRetryAfterHeader()).isEqualTo("retry-after: 30");
        assertThat(result.getRateLimit().getWindows().get(0).getHeader()).isEqualTo("x-ratelimit-remaining: 0 Bearer [redacted]");
        assertThat(result.getAgentId()).as("an identity, not free text").isEqualTo("agent-sk-live-abcdef");
    }

    @Test
    void aFailuresMessageDataContentWarningsAndPartialFindingsAreScrubbed() {
        AgentResult result = result(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("auth_error")
                .setType("AuthenticationError").setMessage("401: " + LEAK).setStatusCode(401).build())
                .setData("{\"cookie\":\"a=1\"}").setContent("curl -H 'x-api-key: sk-ant-api03-zzz'")
                .setWarnings(Collections.unmodifiableList(List.of("retrying with " + LEAK)))
                .setPartialFindings(List.of(finding())).build()).build();

        InputBounds.check(result);

        Failure failure = (Failure) result.getOutcome();
        assertThat(failure.getError().getMessage()).isEqualTo("401: " + CLEAN);
        assertThat(failure.getError().getCode()).isEqualTo("auth_error");
        assertThat(failure.getError().getType()).isEqualTo("AuthenticationError");
        assertThat(failure.getData()).isEqualTo("{\"cookie\":\"[redacted]\"}");
        assertThat(failure.getContent()).isEqualTo("curl -H 'x-api-key: [redacted]'");
        assertThat(failure.getWarnings()).containsExactly("retrying with " + CLEAN);
        assertThat(failure.getPartialFindings().get(0).getMessage()).isEqualTo("hard-coded " + CLEAN);
    }

    @Test
    void progressAndASkipReasonAreScrubbed() {
        AgentResult inProgress = result(InProgress.newBuilder().setProgress("{\"password\":\"p\"}")
                .setWarnings(List.of(LEAK)).build()).build();
        AgentResult skipped = result(Skipped.newBuilder().setReason("no access: " + LEAK).build()).build();

        InputBounds.check(inProgress);
        InputBounds.check(skipped);

        assertThat(((InProgress) inProgress.getOutcome()).getProgress()).isEqualTo("{\"password\":\"[redacted]\"}");
        assertThat(((InProgress) inProgress.getOutcome()).getWarnings()).containsExactly(CLEAN);
        assertThat(((Skipped) skipped.getOutcome()).getReason()).isEqualTo("no access: " + CLEAN);
    }

    @Test
    void aNodesPayloadStateAndReasonAndAnEvaluationsReasonAndContextAreScrubbed() {
        NodeFinished node = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n-1")
                .setPayloadResults("{\"access_token\":\"at-1\"}").setState("{\"refresh_token\":\"rt-1\"}")
                .setReason("HTTP 401 " + LEAK).build();
        ContinuationEvaluated event = ContinuationEvaluated.newBuilder().setAgentId("agent-1").setStep(1)
                .setShouldContinue(false).setStopReason(StopReason.ERROR).setResolvedBy("ErrorCriterion")
                .setEvaluations(List.of(ContinuationEvaluation.newBuilder().setCriterion("ToolError")
                        .setDecision(ContinuationDecision.FORBID_CONTINUATION).setReason("tool failed: " + LEAK)
                        .setContext("{\"toolName\":\"http\",\"api_key\":\"k-1\"}").build())).build();

        InputBounds.check(node);
        InputBounds.check(event);

        assertThat(List.of(node.getPayloadResults(), node.getState(), node.getReason())).containsExactly(
                "{\"access_token\":\"[redacted]\"}", "{\"refresh_token\":\"[redacted]\"}", "HTTP 401 " + CLEAN);
        ContinuationEvaluation evaluation = event.getEvaluations().get(0);
        assertThat(evaluation.getReason()).isEqualTo("tool failed: " + CLEAN);
        assertThat(evaluation.getContext()).isEqualTo("{\"toolName\":\"http\",\"api_key\":\"[redacted]\"}");
    }

    @Test
    void aRecordWithoutCredentialsIsLeftAsItCame() {
        List<String> warnings = List.of("slow", "retried once");
        Success success = Success.newBuilder().setData("{\"answer\":42}").setWarnings(warnings).build();
        AgentResult result = result(success).setReply("Done.").build();
        AgentResult before = AgentResult.newBuilder(result).build();

        InputBounds.check(result);

        assertThat(result).isEqualTo(before);
        assertThat(success.getWarnings()).isSameAs(warnings);
    }

    @Test
    void aRecordThatRedactingWouldGrowByMoreThanFourKilobytesIsRefusedNamingTheField() {
        List<String> warnings = Collections.nCopies(1000, "pwd=1");
        AgentResult result = result(Success.newBuilder().setWarnings(warnings).build()).build();

        // Each "pwd=1" becomes "pwd=[redacted]", 9 characters more: the 456th goes over.
        assertThatThrownBy(() -> InputBounds.check(result)).isInstanceOf(InvalidInputException.class)
                .hasMessage("outcome.warnings[455]: redacting credential-like text would make the record 4104 characters "
                        + "longer than it came, more than 4096")
                .extracting(e -> ((InvalidInputException) e).kind()).isEqualTo(RejectionReason.TOO_LARGE);
    }
}
