package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.CloudEventsTest.bytes;
import static io.agentoutcomes.topology.ingest.CloudEventsTest.header;
import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A CloudEvent that breaks the CloudEvents 1.0 spec lands on rejected-input as {@code invalid-cloudevent}, as it came,
 * saying what is wrong; data that is not a JSON object, or not a result, is refused as it would be unwrapped; and a
 * credential hidden in {@code data_base64} does not reach rejected-input.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadCloudEventsTest {
    private static final String STRUCTURED = "content-type=application/cloudevents+json";
    private static final String GOOD = "{\"status\":\"success\",\"data\":1}";

    private final IngestDriver pipeline = new IngestDriver();

    @AfterAll
    void close() {
        pipeline.close();
    }

    @ParameterizedTest(name = "{2}: {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // structured mode
        STRUCTURED + " | {\"specversion\":\"1.0\",\"source\":\"a\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: id is missing: a CloudEvent requires specversion, id, source and type",
        STRUCTURED + " | {\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: specversion is missing: a CloudEvent requires specversion, id, source and type",
        STRUCTURED + " | {\"specversion\":\"0.3\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: specversion is '0.3': only CloudEvents 1.0 is read",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: source is empty: a CloudEvent requires specversion, id, source and type",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":1,\"source\":\"a\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: attribute id is number: expected a string",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a b\",\"type\":\"t\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: source is 'a b': not a URI-reference (Illegal character in path)",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"subject\":\"\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: subject is empty: when present it must not be",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"time\":\"yesterday\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: time is 'yesterday': expected an RFC 3339 timestamp, e.g. 2026-03-01T12:00:00Z",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"myext\":{\"a\":1},\"data\":{}} | invalid-cloudevent | invalid CloudEvent: attribute myext is object: expected a string, a 32-bit integer or a boolean",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"Status\":\"x\",\"data\":{}} | invalid-cloudevent | invalid CloudEvent: member 'Status' is not a CloudEvents attribute name (lower-case letters and digits)",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\"} | invalid-cloudevent | invalid CloudEvent: the event has no data (neither data nor data_base64): the record it wraps is its data",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":{},\"data_base64\":\"e30=\"} | invalid-cloudevent | invalid CloudEvent: the event has both data and data_base64: the JSON format allows one",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data_base64\":\"not base64!\"} | invalid-cloudevent | invalid CloudEvent: data_base64 is not base64 (RFC 4648): Illegal base64 character 20",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data_base64\":7} | invalid-cloudevent | invalid CloudEvent: data_base64 is number: expected a base64 string",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"datacontenttype\":\"text/plain\",\"data\":\"{}\"} | invalid-cloudevent | invalid CloudEvent: datacontenttype is 'text/plain': the data must be JSON (application/json or */*+json)",
        "content-type=application/cloudevents+avro | {} | invalid-cloudevent | invalid CloudEvent: content-type 'application/cloudevents+avro' is a CloudEvents format this service does not read: expected application/cloudevents+json (the batch format is not part of the Kafka binding)",
        "content-type=application/cloudevents-batch+json | [] | invalid-cloudevent | invalid CloudEvent: content-type 'application/cloudevents-batch+json' is a CloudEvents format this service does not read: expected application/cloudevents+json (the batch format is not part of the Kafka binding)",
        // structured mode without a content-type header, as Dapr writes it: a specversion member makes it an envelope
        " | {\"specversion\":\"1.0\",\"status\":\"success\",\"data\":1} | invalid-cloudevent | invalid CloudEvent: id is missing: a CloudEvent requires specversion, id, source and type",
        // the data is judged as it would be unwrapped
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":\"text\"} | unparseable-json | CloudEvent data (data): expected a JSON object, got string",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":null} | unparseable-json | CloudEvent data (data): expected a JSON object, got null",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data_base64\":\"eyJzdGF0dXMiOg==\"} | unparseable-json | CloudEvent data (data_base64): not valid JSON: Unexpected end-of-input within/between Object entries",
        STRUCTURED + " | {\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\",\"type\":\"t\",\"data\":{\"foo\":1}} | unknown-dialect | the record matches no known dialect:" + JsonDialectsTest.NO_SHAPE,
        // binary mode
        "ce_specversion=1.0;ce_id=1;ce_type=t | " + GOOD + " | invalid-cloudevent | invalid CloudEvent: ce_source is missing: a CloudEvent requires specversion, id, source and type",
        "ce_specversion=1.0;ce_id=;ce_source=a;ce_type=t | " + GOOD + " | invalid-cloudevent | invalid CloudEvent: ce_id is empty: a CloudEvent requires specversion, id, source and type",
        "ce_specversion=0.3;ce_id=1;ce_source=a;ce_type=t | " + GOOD + " | invalid-cloudevent | invalid CloudEvent: ce_specversion is '0.3': only CloudEvents 1.0 is read",
        "ce_specversion=1.0;ce_id=1;ce_source=a;ce_type=t;ce_Subject=x | " + GOOD + " | invalid-cloudevent | invalid CloudEvent: header 'ce_Subject': 'Subject' is not a CloudEvents attribute name (lower-case letters and digits)",
        "ce_specversion=1.0;ce_id=1;ce_source=a;ce_type=t;content-type=text/plain | " + GOOD + " | invalid-cloudevent | invalid CloudEvent: content-type is 'text/plain': the data must be JSON (application/json or */*+json)",
        "ce_specversion=1.0;ce_id=1;ce_source=a;ce_type=t | hello | unparseable-json | CloudEvent data (value): not valid JSON: Unrecognized token 'hello': was expecting (JSON String, Number (or 'NaN'/'+INF'/'-INF'), Array, Object or token 'null', 'true' or 'false')",
    })
    void aBadCloudEventIsRejectedWithItsReasonAndTheNextRecordIsProcessed(String headerList, String value, String reason,
                                                                           String message) {
        Headers headers = new RecordHeaders();
        if (headerList != null) {
            for (String pair : headerList.split(";")) {
                int equals = pair.indexOf('=');
                headers.add(pair.substring(0, equals).trim(), bytes(pair.substring(equals + 1).trim()));
            }
        }
        pipeline.pipe("agent-results-json", "task-1", bytes(value), headers);
        pipeline.pipe("agent-results-json", "task-1", bytes(GOOD), headers("agent-id", "a-1"));

        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        int normalized = pipeline.agentResults().size();
        assertThat(rejected).hasSize(1);
        assertThat(header(rejected.get(0).headers(), RejectedInput.REASON)).isEqualTo(reason);
        assertThat(header(rejected.get(0).headers(), RejectedInput.MESSAGE)).isEqualTo(message);
        assertThat(new String(rejected.get(0).value(), StandardCharsets.UTF_8)).isEqualTo(value);
        assertThat(normalized).isEqualTo(1);
    }

    @Test
    void aCredentialInTheDataOfARejectedEventIsRemovedEvenWhenBase64Hides() {
        String data = "{\"error\":\"rate_limit\",\"provider_data\":{\"raw_headers\":{\"authorization\":\"Bearer sk-live-0123456789abcdef\","
                + "\"x-request-id\":\"req-1\"}}}";
        String base64 = Base64.getEncoder().encodeToString(bytes(data));
        // no type: rejected
        pipeline.pipe("agent-results-json", "task-2", bytes("{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\","
                + "\"data_base64\":\"" + base64 + "\"}"), headers("content-type", "application/cloudevents+json"));
        pipeline.pipe("agent-results-json", "task-2", bytes("{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"a\","
                + "\"data\":" + data + "}"), headers("content-type", "application/cloudevents+json"));

        List<TestRecord<byte[], byte[]>> rejected = pipeline.rejected();
        assertThat(rejected).hasSize(2);
        String kept = "{\"error\":\"rate_limit\",\"provider_data\":{\"raw_headers\":{\"x-request-id\":\"req-1\"}}}";
        assertThat(new String(rejected.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("{\"specversion\":\"1.0\","
                + "\"id\":\"1\",\"source\":\"a\",\"data_base64\":\"" + Base64.getEncoder().encodeToString(bytes(kept)) + "\"}");
        assertThat(new String(rejected.get(1).value(), StandardCharsets.UTF_8)).isEqualTo("{\"specversion\":\"1.0\","
                + "\"id\":\"1\",\"source\":\"a\",\"data\":" + kept + "}");
        assertThat(rejected).allSatisfy(r -> assertThat(header(r.headers(), RejectedInput.REDACTED)).isEqualTo("true"));
    }
}
