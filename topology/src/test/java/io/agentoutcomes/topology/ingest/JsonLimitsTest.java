package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.BadInputTest.headersOf;
import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JSON that is expensive to read or silently wrong is rejected quickly with a reason: numbers beyond what a field
 * can hold, duplicate keys, deep nesting, long numbers and oversized documents.
 */
class JsonLimitsTest {
    private final IngestDriver pipeline = new IngestDriver();

    @AfterEach
    void close() {
        pipeline.close();
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "out-of-range | {\"content\":\"x\",\"rate_limit\":{\"retry_after\":1e20}} | rate_limit.retry_after is 1E+20: too large (at most 9223372036854775 seconds)",
        "out-of-range | {\"content\":\"x\",\"rate_limit\":{\"retry_after\":1e10000000}} | rate_limit.retry_after is 1E+10000000: out of range (at most 30 digits before the decimal point)",
        "out-of-range | {\"content\":\"x\",\"rate_limit\":{\"retry_after\":1e-10000000}} | rate_limit.retry_after is 1E-10000000: out of range (at most 30 digits after the decimal point)",
        "out-of-range | {\"usage\":{\"input_tokens\":1e10000000}} | usage.input_tokens is 1E+10000000: out of range (at most 30 digits before the decimal point)",
        "out-of-range | {\"content\":\"x\",\"cost\":-1e10000000} | cost is -1E+10000000: out of range (at most 30 digits before the decimal point)",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"confidence\":1e10000000} | confidence is 1E+10000000: out of range (at most 30 digits before the decimal point)",
    })
    void hugeAndTinyNumbersAreRejectedQuicklyNamingTheField(String reason, String json, String message) {
        long start = System.nanoTime();
        pipeline.agentResult("task-1", json, headers("agent-id", "a"));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofMillis(500));
        TestRecord<byte[], byte[]> rejected = single();
        assertThat(headersOf(rejected)).containsEntry(RejectedInput.REASON, reason).containsEntry(RejectedInput.MESSAGE, message);
        assertThat(pipeline.agentResults()).isEmpty();
    }

    @Test
    void aDuplicateKeyIsRejectedNotResolvedByTheLastValue() {
        pipeline.agentResult("task-1", "{\"status\":\"success\",\"data\":1,\"status\":\"error\"}", headers("agent-id", "a"));

        assertThat(headersOf(single())).containsEntry(RejectedInput.REASON, "unparseable-json")
                .containsEntry(RejectedInput.MESSAGE, "duplicate key 'status': a key may appear once per object");
        assertThat(pipeline.agentResults()).isEmpty();
    }

    @Test
    void deepNestingIsRejected() {
        String deep = "[".repeat(101) + "]".repeat(101);
        pipeline.agentResult("task-1", "{\"status\":\"success\",\"data\":" + deep + "}", headers("agent-id", "a"));

        assertThat(headersOf(single())).containsEntry(RejectedInput.REASON, "unparseable-json")
                .containsEntry(RejectedInput.MESSAGE, "not valid JSON: nested deeper than 100 levels");
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        String deep = "[".repeat(99) + "]".repeat(99);
        pipeline.agentResult("task-1", "{\"status\":\"success\",\"data\":" + deep + "}", headers("agent-id", "a"));

        assertThat(pipeline.rejected()).isEmpty();
        assertThat(pipeline.agentResults()).hasSize(1);
    }

    @Test
    void aNumberOfMoreThanOneHundredCharactersIsRejected() {
        pipeline.agentResult("task-1", "{\"usage\":{\"input_tokens\":" + "9".repeat(101) + "}}", headers("agent-id", "a"));

        assertThat(headersOf(single())).containsEntry(RejectedInput.REASON, "unparseable-json")
                .containsEntry(RejectedInput.MESSAGE, "not valid JSON: a number longer than 100 characters");
    }

    @Test
    void aDocumentOverFourMebibytesIsRefusedByTheParserItself() {
        // The pipeline's input limit (input.max.record.bytes) stops such a record first; explain reads it directly.
        byte[] json = ("{\"status\":\"success\",\"data\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        RecordContext context = new RecordContext("task-1", new org.apache.kafka.common.header.internals.RecordHeaders()
                .add("agent-id", "a".getBytes(java.nio.charset.StandardCharsets.UTF_8)), "agent-results-json", 0, 0,
                java.time.Instant.EPOCH);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentResultNormalizer.normalize(json, context))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("not valid JSON: longer than 4194304 bytes");
    }

    private TestRecord<byte[], byte[]> single() {
        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).hasSize(1);
        return rejected.get(0);
    }
}
