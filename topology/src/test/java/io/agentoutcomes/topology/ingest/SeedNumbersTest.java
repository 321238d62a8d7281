package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.agentResultRefusal;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.Success;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a seed says {@code number} (seed 000's TypeScript {@code number}, seed 004's {@code z.number()}), any finite
 * number is a valid value: {@code performance.now()} measures 150.25 ms. It is rounded half up to the contract's
 * whole unit; a negative or non-finite value is still refused, saying why. Seed 003's counts are Python {@code int}s
 * and stay whole.
 */
class SeedNumbersTest {
    private static AgentResult publish(String json) {
        return agentResult("task-1", json, headers("agent-id", "a-1"));
    }

    @Test
    void seed000FractionalDurationIsRoundedToTheMillisecond() {
        AgentResult result = publish("{\"status\":\"success\",\"data\":1,\"execution\":{\"durationMs\":150.25,"
                + "\"tokensUsed\":450.0,\"retryCount\":1}}");

        assertThat(result.getExecution().getDurationMs()).isEqualTo(150L);
        assertThat(result.getExecution().getUsage().getTotalTokens()).isEqualTo(450L);
        assertThat(result.getExecution().getRetryCount()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} ms -> {1}")
    @CsvSource({"150.25, 150", "150.5, 151", "0.4, 0", "1e3, 1000", "1234.999, 1235"})
    void seed004FractionalDurationIsRoundedHalfUp(String written, long millis) {
        AgentResult result = publish("{\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"no files\","
                + "\"metrics\":{\"durationMs\":" + written + ",\"filesProcessed\":0}}");

        assertThat(result.getExecution()).isEqualTo(ExecutionMetadata.newBuilder().setDurationMs(millis).build());
    }

    @Test
    void seed004FractionalCountsAreRoundedAndTheFindingKept() {
        AgentResult result = publish("{\"status\":\"success\",\"agentId\":\"a\",\"findings\":[{\"severity\":\"info\","
                + "\"file\":\"a.ts\",\"line\":10.0,\"endLine\":12.4,\"message\":\"m\",\"sourceAgent\":\"s\"}],"
                + "\"metrics\":{\"durationMs\":2.5,\"filesProcessed\":5.5,\"tokensUsed\":99.5}}");

        assertThat(result.getExecution().getDurationMs()).isEqualTo(3L);
        assertThat(result.getExecution().getUsage().getTotalTokens()).isEqualTo(100L);
        Finding finding = ((Success) result.getOutcome()).getFindings().get(0);
        assertThat(finding.getLine()).isEqualTo(10);
        assertThat(finding.getEndLine()).isEqualTo(12);
        // filesProcessed has no canonical field: it stays in the metadata as written
        assertThat(result.getMetadata()).isEqualTo("{\"filesProcessed\":5.5}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "negative | {\"status\":\"success\",\"data\":1,\"execution\":{\"durationMs\":-0.5}} | out-of-range | execution.durationMs is -0.5: must not be negative",
        "NaN | {\"status\":\"success\",\"data\":1,\"execution\":{\"durationMs\":NaN}} | out-of-range | execution.durationMs is NaN: not a finite number",
        "Infinity | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"durationMs\":Infinity,\"filesProcessed\":0}} | out-of-range | metrics.durationMs is Infinity: not a finite number",
        "too large | {\"status\":\"skipped\",\"agentId\":\"a\",\"reason\":\"r\",\"metrics\":{\"durationMs\":1e25,\"filesProcessed\":0}} | out-of-range | metrics.durationMs is 1E+25: too large (at most 9223372036854775807)",
        "string | {\"status\":\"success\",\"data\":1,\"execution\":{\"durationMs\":\"150\"}} | wrong-type | execution.durationMs is string \"150\": expected a number",
        "seed 003 int | {\"usage\":{\"input_tokens\":1.5}} | wrong-type | usage.input_tokens is 1.5: expected a whole number of at most 19 digits",
    })
    void outOfBoundValuesAreStillRejectedSayingWhy(String row, String json, String reason, String message) {
        assertThat(agentResultRefusal("task-1", json, headers("agent-id", "a-1"))).containsExactly(reason, message);
    }
}
