package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.BadInputTest.headersOf;
import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No credential reaches rejected-input: not in the value of a record that is not even JSON, not in the Kafka
 * headers copied from the input, not in the error message; and a huge header value is not copied whole.
 */
class RejectedCredentialsTest {
    private final IngestDriver pipeline = new IngestDriver();

    @AfterEach
    void close() {
        pipeline.close();
    }

    @Test
    void credentialsInAnUnparseableValueAreScrubbedInPlace() {
        pipeline.agentResult("task-1", "{\"content\":\"ok\",\"provider_data\":{\"raw_headers\":{"
                + "\"Authorization\":\"Bearer sk-live-123\",\"x-api-key\":\"sk-ant-api03-abc\",\"cookie\":\"session=s3cr3t\","
                + "\"x-request-id\":\"req-1\"}},\"password\":\"hunter2\",\"api_key\":42} x", headers("agent-id", "a"));

        TestRecord<byte[], byte[]> rejected = single();
        assertThat(new String(rejected.value(), StandardCharsets.UTF_8)).isEqualTo("{\"content\":\"ok\",\"provider_data\":"
                + "{\"raw_headers\":{\"Authorization\":\"[redacted]\",\"x-api-key\":\"[redacted]\",\"cookie\":\"[redacted]\","
                + "\"x-request-id\":\"req-1\"}},\"password\":\"[redacted]\",\"api_key\":[redacted]} x");
        assertThat(headersOf(rejected)).containsEntry(RejectedInput.REDACTED, "true")
                .containsEntry(RejectedInput.REASON, "unparseable-json");
        assertNoSecretIn(rejected, "sk-", "s3cr3t", "hunter2");
    }

    @Test
    void credentialsInPlainTextAndInTheParserMessageAreScrubbed() {
        pipeline.agentResult("task-1", "AKIAABCDEFGHIJKLMNOP Authorization: Bearer tok-1 api_key=tok-2 Token=tok-3 sk-proj-abc123",
                headers("agent-id", "a"));

        TestRecord<byte[], byte[]> rejected = single();
        assertThat(new String(rejected.value(), StandardCharsets.UTF_8))
                .isEqualTo("[redacted] Authorization: [redacted] api_key=[redacted] Token=tok-3 [redacted]");
        assertThat(headersOf(rejected)).containsEntry(RejectedInput.MESSAGE, "not valid JSON: Unrecognized token '[redacted]': "
                + "was expecting (JSON String, Number (or 'NaN'/'+INF'/'-INF'), Array, Object or token 'null', 'true' or 'false')");
        assertNoSecretIn(rejected, "AKIA", "sk-proj", "abc123", "tok-1", "tok-2");
    }

    @Test
    void credentialsInAnErrorMessageAreScrubbed() {
        pipeline.agentResult("task-1", "{\"status\":\"success\",\"data\":1,\"confidence\":\"Bearer sk-in-message\"}",
                headers("agent-id", "a"));

        TestRecord<byte[], byte[]> rejected = single();
        assertThat(headersOf(rejected)).containsEntry(RejectedInput.MESSAGE,
                "confidence is string \"Bearer [redacted]\": expected a number");
        assertThat(new String(rejected.value(), StandardCharsets.UTF_8))
                .isEqualTo("{\"status\":\"success\",\"data\":1,\"confidence\":\"Bearer [redacted]\"}");
        assertNoSecretIn(rejected, "sk-in-message");
    }

    @Test
    void kafkaHeadersAreCopiedWithoutCredentialsAndBounded() {
        Headers input = headers("agent-id", "a", "Authorization", "Bearer sk-h1", "X-Api-Key", "plain-key",
                "cookie", "sid=1", "trace", "t-1", "note", "forwarded Bearer sk-h3", "big", "a".repeat(5000));
        pipeline.agentResult("task-1", "{\"status\":\"done\"}", input);

        TestRecord<byte[], byte[]> rejected = single();
        Map<String, String> headers = headersOf(rejected);
        assertThat(headers).containsEntry("agent-id", "a").containsEntry("trace", "t-1")
                .containsEntry("Authorization", "[redacted]").containsEntry("X-Api-Key", "[redacted]")
                .containsEntry("cookie", "[redacted]").containsEntry("note", "forwarded Bearer [redacted]")
                .containsEntry("big", "a".repeat(1024) + "…[truncated: 5000 bytes]")
                .containsEntry(RejectedInput.REDACTED, "true");
        assertNoSecretIn(rejected, "sk-h", "plain-key", "sid=1");
    }

    @Test
    void aValueWithoutCredentialsIsCopiedAsItCame() {
        pipeline.agentResult("task-1", "{\"status\":\"success\",\"tokens\":3} trailing", headers("agent-id", "a"));

        TestRecord<byte[], byte[]> rejected = single();
        assertThat(new String(rejected.value(), StandardCharsets.UTF_8)).isEqualTo("{\"status\":\"success\",\"tokens\":3} trailing");
        assertThat(headersOf(rejected)).doesNotContainKey(RejectedInput.REDACTED);
    }

    private TestRecord<byte[], byte[]> single() {
        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).hasSize(1);
        return rejected.get(0);
    }

    private static void assertNoSecretIn(TestRecord<byte[], byte[]> record, String... secrets) {
        List<String> texts = new ArrayList<>();
        texts.add(new String(record.value(), StandardCharsets.UTF_8));
        for (Header header : record.headers()) {
            texts.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        for (String text : texts) {
            for (String secret : secrets) {
                assertThat(text).as("a copied value or header").doesNotContain(secret);
            }
        }
    }
}
