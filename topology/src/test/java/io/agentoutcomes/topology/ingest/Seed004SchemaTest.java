package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 004's Zod schema (FR-025) and its Validation Rules table, row by row: every required field of each variant
 * and of a finding, missing, is rejected naming the field; what the table calls optional or defaulted is accepted.
 */
class Seed004SchemaTest {
    private static final String METRICS = "\"metrics\":{\"durationMs\":150,\"filesProcessed\":5}";
    private static final String FINDING = "{\"severity\":\"error\",\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"security\"}";

    private static void normalize(String json) {
        AgentResultNormalizer.normalize(json.getBytes(StandardCharsets.UTF_8),
                new RecordContext("pr-1", new RecordHeaders(), "agent-results-json", 0, 0, Instant.EPOCH));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "success without findings | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + "} | findings is required when status is success",
        "success without metrics | {\"status\":\"success\",\"agentId\":\"a\",\"findings\":[]} | metrics is required",
        "failure without failureStage | {\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"boom\"," + METRICS + "} | failureStage is required when status is failure",
        "failure without metrics | {\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"boom\",\"failureStage\":\"exec\"} | metrics is required",
        "failure without error | {\"status\":\"failure\",\"agentId\":\"a\",\"failureStage\":\"exec\"," + METRICS + "} | error is required and non-empty when status is failure",
        "skipped without reason | {\"status\":\"skipped\",\"agentId\":\"a\"," + METRICS + "} | reason is required",
        "skipped without metrics | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"no files\"} | metrics is required",
        "metrics without durationMs | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"filesProcessed\":0}} | metrics.durationMs is required",
        "metrics without filesProcessed | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"durationMs\":1}} | metrics.filesProcessed is required",
        "finding without sourceAgent | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"message\":\"m\"}]} | findings[0].sourceAgent is required",
        "partial finding without sourceAgent | {\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"e\",\"failureStage\":\"exec\"," + METRICS + ",\"partialFindings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"message\":\"m\"}]} | partialFindings[0].sourceAgent is required",
        "finding without file | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"message\":\"m\",\"sourceAgent\":\"s\"}]} | findings[0].file is required",
        "finding without message | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"sourceAgent\":\"s\"}]} | findings[0].message is required",
        "finding without severity | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"s\"}]} | findings[0].severity is required",
    })
    void seed004RequiredFieldsAreEnforced(String row, String json, String message) {
        assertThatThrownBy(() -> normalize(json)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(((InvalidInputException) e).kind()).isEqualTo(RejectionReason.MISSING_FIELD));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "success with empty findings | {\"status\":\"success\",\"agentId\":\"a\",\"findings\":[]," + METRICS + "}",
        "success with a full finding | {\"status\":\"success\",\"agentId\":\"a\",\"findings\":[" + FINDING + "]," + METRICS + "}",
        "failure without partialFindings (default []) | {\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"e\",\"failureStage\":\"preflight\"," + METRICS + "}",
        "skipped | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\"," + METRICS + "}",
        "optional metrics tokensUsed and estimatedCostUsd | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"durationMs\":1,\"filesProcessed\":0,\"tokensUsed\":5,\"estimatedCostUsd\":0.01}}",
    })
    void seed004ValidResultsAreAccepted(String row, String json) {
        normalize(json);
    }

    /**
     * Seed 004's Zod schema, value by value: {@code severity} is {@code z.enum(['error', 'warning', 'info'])} (those
     * spellings only), a finding's {@code metadata} is {@code z.record(z.unknown())} (an object), and no field of the
     * schema is nullable ({@code .optional()} allows the field to be absent, not null).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "severity in upper case | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"ERROR\",\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"s\"}]} | findings[0].severity is 'ERROR': expected error, warning or info",
        "severity capitalized | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"Warning\",\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"s\"}]} | findings[0].severity is 'Warning': expected error, warning or info",
        "metadata as a string | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"s\",\"metadata\":\"CWE-79\"}]} | findings[0].metadata is string \"CWE-79\": expected an object",
        "metadata as an array | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"message\":\"m\",\"sourceAgent\":\"s\",\"metadata\":[1]}]} | findings[0].metadata is array [1]: expected an object",
        "partialFindings null | {\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"e\",\"failureStage\":\"exec\"," + METRICS + ",\"partialFindings\":null} | partialFindings is null: the review-agent schema allows no null (leave an optional field out)",
        "a finding's line null | {\"status\":\"success\",\"agentId\":\"a\"," + METRICS + ",\"findings\":[{\"severity\":\"info\",\"file\":\"a.ts\",\"line\":null,\"message\":\"m\",\"sourceAgent\":\"s\"}]} | findings[0].line is null: the review-agent schema allows no null (leave an optional field out)",
        "metrics tokensUsed null | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"durationMs\":1,\"filesProcessed\":0,\"tokensUsed\":null}} | metrics.tokensUsed is null: the review-agent schema allows no null (leave an optional field out)",
    })
    void seed004ValuesTheSchemaRefusesAreRejectedAsWrongType(String row, String json, String message) {
        assertThatThrownBy(() -> normalize(json)).isInstanceOf(InvalidInputException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((InvalidInputException) e).kind()).isEqualTo(RejectionReason.WRONG_TYPE));
    }

    @Test
    void seed004ARelaxedValueGoesToRejectedInputWithItsReason() {
        IngestDriver pipeline = new IngestDriver();
        try {
            pipeline.agentResult("pr-1", "{\"status\":\"failure\",\"agentId\":\"a\",\"error\":\"e\",\"failureStage\":\"exec\","
                    + METRICS + ",\"partialFindings\":null}", IngestDriver.headers());
            assertThat(pipeline.agentResults()).isEmpty();
            List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
            assertThat(rejected).hasSize(1);
            assertThat(new String(rejected.get(0).headers().lastHeader(RejectedInput.REASON).value(), StandardCharsets.UTF_8))
                    .isEqualTo("wrong-type");
            assertThat(new String(rejected.get(0).headers().lastHeader(RejectedInput.MESSAGE).value(), StandardCharsets.UTF_8))
                    .isEqualTo("partialFindings is null: the review-agent schema allows no null (leave an optional field out)");
        } finally {
            pipeline.close();
        }
    }

    @Test
    void seed004AViolationGoesToRejectedInputNamingTheField() {
        IngestDriver pipeline = new IngestDriver();
        try {
            pipeline.agentResult("pr-1", "{\"status\":\"success\",\"agentId\":\"a\"," + METRICS + "}", IngestDriver.headers());
            List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
            assertThat(rejected).hasSize(1);
            assertThat(new String(rejected.get(0).headers().lastHeader(RejectedInput.MESSAGE).value(), StandardCharsets.UTF_8))
                    .isEqualTo("findings is required when status is success (it may be empty)");
            assertThat(new String(rejected.get(0).headers().lastHeader(RejectedInput.REASON).value(), StandardCharsets.UTF_8))
                    .isEqualTo("missing-field");
        } finally {
            pipeline.close();
        }
    }
}
