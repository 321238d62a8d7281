package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every kind of bad input lands on rejected-input with its original bytes, key and headers plus headers saying why,
 * is counted, and does not stop the record after it.
 */
class BadInputTest {
    private static final String GOOD = "{\"status\":\"success\",\"data\":{\"ok\":true}}";

    private final IngestDriver pipeline = new IngestDriver();

    @AfterEach
    void close() {
        pipeline.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "unparseable-json | {\"status\":\"success\", | not valid JSON: Unexpected end-of-input within/between Object entries",
        "unparseable-json | [1,2] | expected a JSON object, got array",
        "unknown-dialect | {\"foo\":1} | the record matches no known dialect:" + JsonDialectsTest.NO_SHAPE,
        "unknown-dialect | {\"status\":\"done\"} | the record matches no known dialect (status 'done'):" + JsonDialectsTest.NO_SHAPE,
        "wrong-type | {\"status\":\"success\",\"data\":1,\"confidence\":\"high\"} | confidence is string \"high\": expected a number",
        "wrong-type | {\"usage\":{\"input_tokens\":\"100\"}} | usage.input_tokens is string \"100\": expected a number",
        "wrong-type | {\"usage\":{\"input_tokens\":1.5}} | usage.input_tokens is 1.5: expected a whole number of at most 19 digits",
        "wrong-type | {\"status\":\"success\",\"agentId\":\"a\",\"findings\":{}} | findings is object {}: expected an array",
        "wrong-type | {\"status\":\"success\",\"data\":1,\"execution\":{\"timestamp\":\"yesterday\"}} | execution.timestamp is 'yesterday': expected an ISO 8601 date-time with offset, e.g. 2024-01-26T15:30:00Z",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"confidence\":1.5} | confidence is 1.5: must be between 0 and 1",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"confidence\":-0.1} | confidence is -0.1: must be between 0 and 1",
        "out-of-range | {\"usage\":{\"output_tokens\":-3}} | usage.output_tokens is -3: must not be negative",
        "out-of-range | {\"content\":\"x\",\"cost\":-0.01} | cost is -0.01: must not be negative",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"confidence\":NaN} | confidence is NaN: not a finite number",
        "out-of-range | {\"content\":\"x\",\"cost\":Infinity} | cost is Infinity: not a finite number",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"execution\":{\"timestamp\":\"+999999999-12-31T23:59:59Z\"}} | execution.timestamp is '+999999999-12-31T23:59:59Z': out of range (from 1970 to the year 9999)",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"execution\":{\"timestamp\":\"-999999999-01-01T00:00:00Z\"}} | execution.timestamp is '-999999999-01-01T00:00:00Z': out of range (from 1970 to the year 9999)",
        "out-of-range | {\"status\":\"success\",\"data\":1,\"execution\":{\"timestamp\":\"1969-12-31T23:59:59Z\"}} | execution.timestamp is '1969-12-31T23:59:59Z': out of range (from 1970 to the year 9999)",
        "out-of-range | {\"content\":\"x\",\"provider_data\":{\"raw_headers\":{\"anthropic-ratelimit-tokens-remaining\":\"0\",\"anthropic-ratelimit-tokens-reset\":\"+999999999-12-31T23:59:59Z\"}}} | rateLimit.windows[0].resetAtMs is 9223372036854775807: out of range (epoch milliseconds from 1970 to the year 9999)",
        "missing-field | {\"status\":\"error\"} | error is required when status is error",
        "missing-field | {\"status\":\"failure\",\"agentId\":\"a\",\"failureStage\":\"exec\"} | error is required and non-empty when status is failure",
    })
    void badAgentResultIsRejectedWithItsReasonAndTheNextRecordIsProcessed(String reason, String json, String message) {
        pipeline.agentResult("task-1", json, headers("agent-id", "a-1", "trace", "t-1"));
        pipeline.agentResult("task-1", GOOD, headers("agent-id", "a-1"));

        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).hasSize(1);
        TestRecord<byte[], byte[]> record = rejected.get(0);
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("task-1");
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo(json);
        assertThat(headersOf(record)).isEqualTo(Map.of(
                "agent-id", "a-1",
                "trace", "t-1",
                RejectedInput.EXCEPTION, InvalidInputException.class.getName(),
                RejectedInput.MESSAGE, message,
                RejectedInput.REASON, reason,
                RejectedInput.TOPIC, "agent-results-json",
                RejectedInput.PARTITION, "0",
                RejectedInput.OFFSET, "0"));
        assertThat(pipeline.rejectedCount("agent-results-json", reason)).isEqualTo(1.0);
        assertThat(pipeline.agentResults()).extracting(r -> r.value().getResultId()).containsExactly("agent-results-json/0/1");
    }

    @Test
    void aValueLongerThanTheInputLimitIsRejectedAsTooLargeWithoutItsBytes() {
        String huge = "{\"status\":\"success\",\"data\":\"" + "x".repeat(600 * 1024) + "\"}";
        pipeline.agentResult("task-1", huge, headers("agent-id", "a-1"));
        pipeline.agentResult("task-1", GOOD, headers("agent-id", "a-1"));

        TestRecord<byte[], byte[]> record = pipeline.rejected().get(0);
        assertThat(record.value()).isNull();
        assertThat(headersOf(record)).containsEntry(RejectedInput.REASON, "too-large")
                .containsEntry(RejectedInput.VALUE_DROPPED_BYTES, String.valueOf(huge.length()))
                .containsEntry(RejectedInput.MESSAGE, "a value of " + huge.length()
                        + " bytes is longer than input.max.record.bytes 524288");
        assertThat(pipeline.agentResults()).extracting(r -> r.value().getResultId()).containsExactly("agent-results-json/0/1");
    }

    @Test
    void missingAgentIdIsRejectedNotGuessed() {
        pipeline.agentResult("task-1", GOOD, headers());

        assertThat(pipeline.rejected()).singleElement().satisfies(r -> assertThat(headersOf(r))
                .containsEntry(RejectedInput.MESSAGE, "agent id is missing: not in the record and no 'agent-id' header")
                .containsEntry(RejectedInput.REASON, "missing-field"));
        assertThat(pipeline.agentResults()).isEmpty();
    }

    @Test
    void nullValueIsRejected() {
        pipeline.agentResult("task-1", null, headers("agent-id", "a"));

        assertThat(pipeline.rejected()).singleElement().satisfies(r -> {
            assertThat(r.value()).isNull();
            assertThat(headersOf(r)).containsEntry(RejectedInput.MESSAGE, "empty record (null value)");
        });
    }

    @Test
    void badNodeFinishedAndContinuationEventsAreRejectedToo() {
        pipeline.nodeFinished("job-1", "{\"node_id\":\"n1\",\"result_type\":\"maybe\"}", headers());
        pipeline.nodeFinished("job-1", "{\"type\":\"node_started\",\"payload\":{\"node_id\":\"n1\"}}", headers());
        pipeline.nodeFinished("job-1", "{\"node_id\":\"n1\",\"result_type\":\"success\"}", headers());
        pipeline.continuationEvent("agent-1", "{\"step\":1,\"shouldContinue\":false,\"stopReason\":\"bored\","
                + "\"resolvedBy\":\"x\"}", headers());

        assertThat(pipeline.rejected()).extracting(r -> headersOf(r).get(RejectedInput.MESSAGE)).containsExactly(
                "result_type is 'maybe': expected success, retryable_failure, permanent_failure or compensatable_failure",
                "event type is 'node_started': expected node_finished",
                "stopReason is 'bored': expected one of completed, steps_limit, token_limit, time_limit, retry_limit, "
                        + "error, finish_reason, guard, user_requested");
        assertThat(pipeline.nodeFinished()).hasSize(1);
    }

    @Test
    void avroWithABadMagicByteOrAnUnknownSchemaIdIsRejectedAndTheNextRecordIsRead() {
        byte[] json = GOOD.getBytes(StandardCharsets.UTF_8);
        byte[] unknownId = {0, 0, 0, 0x30, 0x39, 2, 'a'};
        pipeline.avroAgentResultBytes("task-1", json);
        pipeline.avroAgentResultBytes("task-2", unknownId);
        pipeline.agentResult("task-3", GOOD, headers("agent-id", "a-1"));

        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).extracting(r -> new String(r.key(), StandardCharsets.UTF_8)).containsExactly("task-1", "task-2");
        assertThat(rejected.get(0).value()).isEqualTo(json);
        assertThat(headersOf(rejected.get(0))).containsEntry(RejectedInput.EXCEPTION,
                        "io.agentoutcomes.avro.serde.UnknownMagicByteException")
                .containsEntry(RejectedInput.TOPIC, "agent-results").containsEntry(RejectedInput.OFFSET, "0");
        assertThat(rejected.get(1).value()).isEqualTo(unknownId);
        assertThat(headersOf(rejected.get(1))).containsEntry(RejectedInput.EXCEPTION,
                        "io.agentoutcomes.avro.serde.UnknownSchemaIdException")
                .containsEntry(RejectedInput.OFFSET, "1");
        assertThat(headersOf(rejected.get(1)).get(RejectedInput.MESSAGE)).startsWith("Schema id 12345 of a record from topic 'agent-results'");
        assertThat(pipeline.agentResults()).hasSize(1);
    }

    static Map<String, String> headersOf(TestRecord<byte[], byte[]> record) {
        Map<String, String> headers = new HashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }

}
