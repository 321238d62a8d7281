package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.RECORD_TIME;
import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every example envelope of seed 000, published as JSON, and the exact canonical record it becomes. */
class Seed000VatEnvelopeTest {
    private static AgentResult publish(String json) {
        return publish(json, 0);
    }

    /** @param offset the record's offset on the topic, which makes its result id */
    private static AgentResult publish(String json, long offset) {
        return agentResult("task-1", json, headers("agent-id", "photo-analyzer"), offset);
    }

    private static AgentResult.Builder expected(long offset) {
        return AgentResult.newBuilder().setResultId("agent-results-json/0/" + offset).setAgentId("photo-analyzer")
                .setTaskId("task-1").setAttempt(0).setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(RECORD_TIME.toEpochMilli());
    }

    private static Success success(String data, String... warnings) {
        return Success.newBuilder().setData(data).setWarnings(List.of(warnings)).build();
    }

    private static Failure error(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }

    @Test
    void uncertainPhotoAnalysis() {
        assertThat(publish("{\"status\":\"success\",\"data\":{\"breed\":\"Maine Coon\"},\"confidence\":0.65}"))
                .isEqualTo(expected(0).setConfidence(0.65).setOutcome(success("{\"breed\":\"Maine Coon\"}")).build());
    }

    @Test
    void confidentValidation() {
        assertThat(publish("{\"status\":\"success\",\"data\":{\"valid\":true},\"confidence\":0.98}"))
                .isEqualTo(expected(0).setConfidence(0.98).setOutcome(success("{\"valid\":true}")).build());
    }

    @Test
    void uncertainErrorClassification() {
        assertThat(publish("{\"status\":\"error\",\"error\":\"llm-refusal\",\"confidence\":0.7}"))
                .isEqualTo(expected(0).setConfidence(0.7).setOutcome(error("llm-refusal")).build());
    }

    @Test
    void conversationalProgress() {
        assertThat(publish("{\"status\":\"in-progress\",\"confidence\":0.5,"
                + "\"metadata\":{\"factorsCollected\":2,\"requiredFactors\":4}}"))
                .isEqualTo(expected(0).setConfidence(0.5).setOutcome(InProgress.newBuilder()
                        .setProgress("{\"factorsCollected\":2,\"requiredFactors\":4}").build()).build());
    }

    @Test
    void successWithWarnings() {
        assertThat(publish("{\"status\":\"success\",\"data\":{\"breed\":\"Persian\"},\"warnings\":["
                + "\"Image quality was poor, confidence may be lower\",\"Breed database last updated 6 months ago\"]}"))
                .isEqualTo(expected(0).setOutcome(success("{\"breed\":\"Persian\"}",
                        "Image quality was poor, confidence may be lower",
                        "Breed database last updated 6 months ago")).build());
        assertThat(publish("{\"status\":\"success\",\"data\":{\"name\":\"Fluffy\"},\"warnings\":["
                + "\"Name validation was lenient due to unusual characteristics\"]}", 1)).isEqualTo(expected(1)
                .setOutcome(success("{\"name\":\"Fluffy\"}", "Name validation was lenient due to unusual characteristics"))
                .build());
    }

    @Test
    void agentLevelExecutionMetadata() {
        assertThat(publish("{\"status\":\"success\",\"data\":{\"characteristics\":{}},\"execution\":{"
                + "\"durationMs\":1234,\"tokensUsed\":450,\"cost\":0.0045,\"model\":\"gpt-4o-mini\","
                + "\"provider\":\"openai\",\"timestamp\":\"2024-01-26T15:30:00Z\"}}"))
                .isEqualTo(expected(0).setOutcome(success("{\"characteristics\":{}}"))
                        .setExecution(execution(1234, 450, "0.0045", null)).build());
    }

    @Test
    void afterTheOrchestratorsRetryWrapper() {
        assertThat(publish("{\"status\":\"success\",\"data\":{\"characteristics\":{}},\"execution\":{"
                + "\"durationMs\":3456,\"tokensUsed\":1200,\"cost\":0.012,\"model\":\"gpt-4o-mini\","
                + "\"provider\":\"openai\",\"retryCount\":2,\"timestamp\":\"2024-01-26T15:30:00Z\"}}"))
                .isEqualTo(expected(0).setOutcome(success("{\"characteristics\":{}}"))
                        .setExecution(execution(3456, 1200, "0.012", 2)).build());
    }

    @Test
    void oneShotOutputsFromTheAgentAndMigrationExamples() {
        String[] codes = {"llm-rate-limit", "llm-timeout", "llm-unavailable"};
        for (int i = 0; i < codes.length; i++) {
            assertThat(publish("{\"result\":{\"status\":\"error\",\"error\":\"" + codes[i] + "\"}}", i))
                    .isEqualTo(expected(i).setOutcome(error(codes[i])).build());
        }
        assertThat(publish("{\"result\":{\"status\":\"success\",\"data\":{\"breed\":\"Maine Coon\"}}}", 3))
                .isEqualTo(expected(3).setOutcome(success("{\"breed\":\"Maine Coon\"}")).build());
    }

    @Test
    void conversationalOutputKeepsReplyAndSessionState() {
        assertThat(publish("{\"reply\":\"Two more questions and I can recommend a breed.\","
                + "\"sessionState\":{\"turn\":3,\"answers\":[\"indoor\"]},"
                + "\"result\":{\"status\":\"in-progress\",\"confidence\":0.5,\"metadata\":{\"factorsCollected\":2}}}"))
                .isEqualTo(expected(0).setConfidence(0.5).setReply("Two more questions and I can recommend a breed.")
                        .setSessionState("{\"turn\":3,\"answers\":[\"indoor\"]}")
                        .setOutcome(InProgress.newBuilder().setProgress("{\"factorsCollected\":2}").build()).build());
    }

    @Test
    void identityFromFieldsAndHeadersWinsOverTheKey() {
        AgentResult result = agentResult("key-task", "{\"status\":\"success\",\"data\":1,\"resultId\":\"r-9\"}",
                headers("agent-id", "a-1", "task-id", "t-header", "job-id", "job-3", "node-id", "n2", "attempt", "2"));

        // the stage keys the record by this task id (IngestStageTest)
        assertThat(result).isEqualTo(AgentResult.newBuilder().setResultId("r-9").setAgentId("a-1")
                .setTaskId("t-header").setJobId("job-3").setNodeId("n2").setAttempt(2)
                .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(RECORD_TIME.toEpochMilli()).setOutcome(success("1")).build());
    }

    private static ExecutionMetadata execution(long durationMs, long tokens, String cost, Integer retryCount) {
        return ExecutionMetadata.newBuilder().setDurationMs(durationMs).setModel("gpt-4o-mini").setProvider("openai")
                .setTimestamp(Instant.parse("2024-01-26T15:30:00Z").toEpochMilli()).setRetryCount(retryCount)
                .setUsage(Usage.newBuilder().setTotalTokens(tokens).build())
                .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(cost).setScale(12))).setSource(CostSource.REPORTED).build())
                .build();
    }
}
