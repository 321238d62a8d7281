package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.agentResultRefusal;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * JSON that is expensive to read or silently wrong is refused quickly with a reason: numbers beyond what a field
 * can hold, duplicate keys, deep nesting, long numbers and oversized documents.
 */
class JsonLimitsTest {
    private static List<String> refusal(String json) {
        return agentResultRefusal("task-1", json, headers("agent-id", "a"));
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
        List<String> refusal = refusal(json);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofMillis(500));
        assertThat(refusal).containsExactly(reason, message);
    }

    @Test
    void aDuplicateKeyIsRejectedNotResolvedByTheLastValue() {
        assertThat(refusal("{\"status\":\"success\",\"data\":1,\"status\":\"error\"}"))
                .containsExactly("unparseable-json", "duplicate key 'status': a key may appear once per object");
    }

    @Test
    void deepNestingIsRejected() {
        String deep = "[".repeat(101) + "]".repeat(101);

        assertThat(refusal("{\"status\":\"success\",\"data\":" + deep + "}"))
                .containsExactly("unparseable-json", "not valid JSON: nested deeper than 100 levels");
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        String deep = "[".repeat(99) + "]".repeat(99);
        AgentResult result = agentResult("task-1", "{\"status\":\"success\",\"data\":" + deep + "}", headers("agent-id", "a"));

        assertThat(result.getTaskId()).isEqualTo("task-1");
    }

    @Test
    void aNumberOfMoreThanOneHundredCharactersIsRejected() {
        assertThat(refusal("{\"usage\":{\"input_tokens\":" + "9".repeat(101) + "}}"))
                .containsExactly("unparseable-json", "not valid JSON: a number longer than 100 characters");
    }

    @Test
    void aDocumentOverFourMebibytesIsRefusedByTheParserItself() {
        // The pipeline's input limit (input.max.record.bytes) stops such a record first; explain reads it directly.
        assertThat(refusal("{\"status\":\"success\",\"data\":\"" + "x".repeat(4 * 1024 * 1024) + "\"}"))
                .containsExactly("unparseable-json", "not valid JSON: longer than 4194304 bytes");
    }
}
