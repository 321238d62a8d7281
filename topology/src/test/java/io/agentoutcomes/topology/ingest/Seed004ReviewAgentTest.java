package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.RECORD_TIME;
import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.FailureStage;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 004's AgentSuccess, AgentFailure and AgentSkipped examples, and what they become. */
class Seed004ReviewAgentTest {
    private static final String FINDING = "{\"severity\":\"error\",\"file\":\"src/app.ts\",\"line\":10,\"endLine\":12,"
            + "\"message\":\"Possible XSS\",\"suggestion\":\"escape the input\",\"ruleId\":\"xss\","
            + "\"sourceAgent\":\"security\",\"fingerprint\":\"fp-1\",\"metadata\":{\"cwe\":\"CWE-79\"}}";

    private static AgentResult publish(String json) {
        return agentResult("pr-42", json, headers());
    }

    private static AgentResult.Builder expected(String agentId, long durationMs, String otherMetrics) {
        return AgentResult.newBuilder().setResultId("agent-results-json/0/0").setAgentId(agentId).setTaskId("pr-42")
                .setAttempt(0).setDialect(Dialect.REVIEW_AGENT).setRecordTimestamp(RECORD_TIME.toEpochMilli())
                .setExecution(ExecutionMetadata.newBuilder().setDurationMs(durationMs).build())
                .setMetadata(otherMetrics);
    }

    private static Finding finding() {
        return Finding.newBuilder().setSeverity(Severity.ERROR).setFile("src/app.ts").setLine(10).setEndLine(12)
                .setMessage("Possible XSS").setSuggestion("escape the input").setRuleId("xss").setSourceAgent("security")
                .setFingerprint("fp-1").setMetadata("{\"cwe\":\"CWE-79\"}").build();
    }

    @Test
    void agentSuccess() {
        assertThat(publish("{\"status\":\"success\",\"agentId\":\"security\",\"findings\":[" + FINDING + "],"
                + "\"metrics\":{\"durationMs\":150,\"filesProcessed\":5}}"))
                .isEqualTo(expected("security", 150, "{\"filesProcessed\":5}")
                        .setOutcome(Success.newBuilder().setFindings(List.of(finding())).build()).build());
    }

    @Test
    void agentFailureKeepsPartialFindingsApart() {
        assertThat(publish("{\"status\":\"failure\",\"agentId\":\"security\",\"error\":\"API request failed: 500\","
                + "\"failureStage\":\"exec\",\"partialFindings\":[" + FINDING + "],"
                + "\"metrics\":{\"durationMs\":2000,\"filesProcessed\":3,\"tokensUsed\":800}}"))
                .isEqualTo(expected("security", 2000, "{\"filesProcessed\":3}")
                        .setExecution(ExecutionMetadata.newBuilder().setDurationMs(2000L)
                                .setUsage(Usage.newBuilder().setTotalTokens(800L).build()).build())
                        .setOutcome(Failure.newBuilder()
                                .setError(ErrorInfo.newBuilder().setCode("unknown").setMessage("API request failed: 500").build())
                                .setStage(FailureStage.EXEC).setPartialFindings(List.of(finding())).build())
                        .build());
    }

    @Test
    void agentSkipped() {
        assertThat(publish("{\"status\":\"skipped\",\"agentId\":\"typescript\",\"reason\":\"No TypeScript files in diff\","
                + "\"metrics\":{\"durationMs\":1,\"filesProcessed\":0}}"))
                .isEqualTo(expected("typescript", 1, "{\"filesProcessed\":0}")
                        .setOutcome(Skipped.newBuilder().setReason("No TypeScript files in diff").build()).build());
    }
}
