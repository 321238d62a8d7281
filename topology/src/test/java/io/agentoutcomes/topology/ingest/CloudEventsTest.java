package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.IngestDriver.RECORD_TIME;
import static io.agentoutcomes.topology.ingest.IngestDriver.headers;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.Success;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.core.message.Encoding;
import io.cloudevents.jackson.JsonFormat;
import io.cloudevents.kafka.CloudEventSerializer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A result wrapped in a CloudEvent, in either content mode of the Kafka protocol binding, is read and classified
 * exactly as the same result published bare with the same identity in headers; the event's id, source and subject
 * supply the identity a result lacks; its attributes and trace context stay on the canonical record as headers.
 */
class CloudEventsTest {
    private static final String KEY = "the-key";
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    /** One record of each dialect family, with the identity a CloudEvent would carry. */
    record Input(String topic, String id, String source, String subject, String data) {
    }

    static final List<Input> EVERY_FAMILY = List.of(
            new Input("agent-results-json", "result-vat", "vat-agent", "task-vat",
                    "{\"status\":\"error\",\"error\":\"llm-rate-limit\",\"execution\":{\"model\":\"gpt-4o\",\"provider\":\"openai\","
                            + "\"tokensUsed\":120,\"cost\":0.0042}}"),
            new Input("agent-results-json", "result-vat-ok", "vat-agent", "task-vat-ok",
                    "{\"result\":{\"status\":\"success\",\"data\":{\"answer\":42}},\"confidence\":0.9}"),
            new Input("agent-results-json", "result-flat", "flat-agent", "task-flat",
                    "{\"error\":" + Seed003FlatAgentsTest.ERROR + ",\"usage\":" + Seed003FlatAgentsTest.USAGE + ",\"cost\":"
                            + Seed003FlatAgentsTest.COST + ",\"rate_limit\":" + Seed003FlatAgentsTest.RATE_LIMIT
                            + ",\"provider_data\":" + Seed003FlatAgentsTest.PROVIDER_DATA + "}"),
            new Input("agent-results-json", "result-review", "/agents/review", "task-review",
                    "{\"status\":\"failure\",\"agentId\":\"review-agent\",\"error\":\"lint crashed\",\"failureStage\":\"exec\","
                            + "\"metrics\":{\"durationMs\":5,\"filesProcessed\":2}}"),
            new Input("node-finished-json", "event-node", "/runners/r1", "job-7",
                    "{\"node_id\":\"n1\",\"result_type\":\"retryable_failure\",\"reason\":\"timeout\",\"attempt\":1,"
                            + "\"timestamp\":\"2026-03-01T11:59:59Z\"}"),
            new Input("continuation-events-json", "event-loop", "loop-agent", "ignored-subject",
                    "{\"parentAgentId\":\"planner\",\"step\":3,\"shouldContinue\":false,\"stopReason\":\"retry_limit\","
                            + "\"resolvedBy\":\"policy\"}"));

    /** How a record is published. */
    enum Form {
        /** No CloudEvent: identity in this project's headers. */
        BARE,
        STRUCTURED_WITH_DATA,
        STRUCTURED_WITH_DATA_BASE64,
        /** As Dapr's Kafka component writes it: the envelope, no content-type header. */
        STRUCTURED_WITHOUT_CONTENT_TYPE,
        BINARY
    }

    /** Everything the pipeline wrote for a list of records, the classification time and retry jitter left out. */
    record Written(List<KeyValue<String, AgentResult>> agentResults, List<KeyValue<String, NodeFinished>> nodeFinished,
                   List<KeyValue<String, ContinuationEvaluated>> continuationEvents,
                   List<KeyValue<String, ClassifiedOutcome>> outcomes, List<TestRecord<byte[], byte[]>> rejected) {
    }

    @ParameterizedTest
    @EnumSource(value = Form.class, names = "BARE", mode = EnumSource.Mode.EXCLUDE)
    void aWrappedResultOfEveryDialectIsReadAndClassifiedExactlyAsTheBareOne(Form form) {
        Written bare = publish(Form.BARE, EVERY_FAMILY);
        Written wrapped = publish(form, EVERY_FAMILY);

        assertThat(bare.rejected()).isEmpty();
        assertThat(bare.agentResults()).extracting(r -> r.value.getDialect()).containsExactly(
                Dialect.VAT_ENVELOPE, Dialect.VAT_ENVELOPE, Dialect.FLATAGENTS, Dialect.REVIEW_AGENT);
        assertThat(bare.nodeFinished()).hasSize(1);
        assertThat(bare.continuationEvents()).hasSize(1);
        assertThat(bare.outcomes()).hasSize(5);
        assertThat(wrapped.rejected()).isEmpty();
        assertThat(wrapped.agentResults()).isEqualTo(bare.agentResults());
        assertThat(wrapped.nodeFinished()).isEqualTo(bare.nodeFinished());
        assertThat(wrapped.continuationEvents()).isEqualTo(bare.continuationEvents());
        assertThat(wrapped.outcomes()).isEqualTo(bare.outcomes());
    }

    @Test
    void theEventsIdSourceAndSubjectAreTheResultAgentAndTaskIdsOfEachFamily() {
        Written wrapped = publish(Form.BINARY, EVERY_FAMILY);

        assertThat(wrapped.agentResults()).extracting(r -> List.of(r.key, r.value.getResultId(), r.value.getAgentId(),
                r.value.getTaskId())).containsExactly(
                List.of("task-vat", "result-vat", "vat-agent", "task-vat"),
                List.of("task-vat-ok", "result-vat-ok", "vat-agent", "task-vat-ok"),
                List.of("task-flat", "result-flat", "flat-agent", "task-flat"),
                // seed 004 results name their agent: the field comes before the event's source
                List.of("task-review", "result-review", "review-agent", "task-review"));
        assertThat(wrapped.nodeFinished()).extracting(r -> List.of(r.key, r.value.getJobId(), r.value.getNodeId()))
                .containsExactly(List.of("job-7", "job-7", "n1"));
        assertThat(wrapped.continuationEvents()).extracting(r -> List.of(r.key, r.value.getAgentId()))
                .containsExactly(List.of("loop-agent", "loop-agent"));
        assertThat(wrapped.outcomes()).extracting(r -> r.value.getResultType().name()).containsExactly(
                "RETRYABLE_FAILURE", "SUCCESS", "RETRYABLE_FAILURE", "PERMANENT_FAILURE", "RETRYABLE_FAILURE");
    }

    @Test
    void fieldsThenIdentityHeadersComeBeforeTheEventsAttributes() {
        String data = "{\"status\":\"success\",\"data\":1,\"taskId\":\"task-in-data\"}";
        AgentResult result = Normalize.agentResult(KEY, data, binaryHeaders(
                new Input("agent-results-json", "event-id", "event-source", "event-subject", data),
                "agent-id", "agent-in-header", "result-id", "result-in-header", "task-id", "task-in-header"));

        assertThat(result).isEqualTo(AgentResult.newBuilder()
                .setResultId("result-in-header").setAgentId("agent-in-header").setTaskId("task-in-data")
                .setAttempt(0).setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(RECORD_TIME.toEpochMilli())
                .setOutcome(Success.newBuilder().setData("1").build()).build());
    }

    @Test
    void anEventWithoutSubjectTakesItsTaskIdFromTheRecordKey() {
        AgentResult result = Normalize.agentResult("task-from-key", "{\"status\":\"error\",\"error\":\"timeout\"}",
                headers("ce_specversion", "1.0", "ce_id", "e-1", "ce_source", "agent-a", "ce_type", "result"));

        assertThat(result).isEqualTo(AgentResult.newBuilder()
                .setResultId("e-1").setAgentId("agent-a").setTaskId("task-from-key").setAttempt(0)
                .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(RECORD_TIME.toEpochMilli())
                .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("timeout").build()).build())
                .build());
    }

    @Test
    void anEventWithoutSubjectOrKeyIsRejectedNamingEveryPlaceATaskIdCouldComeFrom() {
        assertThat(Normalize.agentResultRefusal(null, "{\"status\":\"error\",\"error\":\"timeout\"}",
                headers("ce_specversion", "1.0", "ce_id", "e-1", "ce_source", "agent-a", "ce_type", "result")))
                .containsExactly("missing-field", "task id is missing: not in the record, no 'task-id' header, "
                        + "no CloudEvents subject, no record key");
    }

    @Test
    void aDaprEnvelopeKeepsItsAttributesAsCeHeadersAndItsTraceContextAsW3cHeaders() {
        String dapr = "{\"specversion\":\"1.0\",\"id\":\"5929aaac-a5e2-4ca1-859c-edfe73f11565\",\"source\":\"vat-agent\","
                + "\"type\":\"com.dapr.event.sent\",\"datacontenttype\":\"application/json\",\"topic\":\"agent-results-json\","
                + "\"pubsubname\":\"kafka-pubsub\",\"traceid\":\"" + TRACEPARENT + "\",\"traceparent\":\"" + TRACEPARENT + "\","
                + "\"tracestate\":\"rojo=00f067aa0ba902b7\",\"time\":\"2026-03-01T11:59:58Z\","
                + "\"data\":{\"status\":\"success\",\"data\":{\"ok\":true}}}";
        try (IngestDriver pipeline = new IngestDriver()) {
            pipeline.pipe("agent-results-json", "task-1", bytes(dapr), headers("x-origin", "dapr"));

            List<TestRecord<String, AgentResult>> out = pipeline.agentResults();
            assertThat(out).extracting(r -> r.value().getResultId()).containsExactly("5929aaac-a5e2-4ca1-859c-edfe73f11565");
            Map<String, String> expected = new LinkedHashMap<>();
            expected.put("x-origin", "dapr");
            expected.put("ce_specversion", "1.0");
            expected.put("ce_id", "5929aaac-a5e2-4ca1-859c-edfe73f11565");
            expected.put("ce_source", "vat-agent");
            expected.put("ce_type", "com.dapr.event.sent");
            expected.put("ce_topic", "agent-results-json");
            expected.put("ce_pubsubname", "kafka-pubsub");
            expected.put("ce_traceid", TRACEPARENT);
            expected.put("ce_traceparent", TRACEPARENT);
            expected.put("ce_tracestate", "rojo=00f067aa0ba902b7");
            expected.put("ce_time", "2026-03-01T11:59:58Z");
            expected.put("traceparent", TRACEPARENT);
            expected.put("tracestate", "rojo=00f067aa0ba902b7");
            expected.put("origin-topic", "agent-results-json");
            expected.put("origin-partition", "0");
            expected.put("origin-offset", "0");
            assertThat(headerList(out.get(0).headers())).containsExactlyElementsOf(expected.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toList());
        }
    }

    @Test
    void anAttributeNamedLikeACredentialIsRedactedInItsHeader() {
        try (IngestDriver pipeline = new IngestDriver()) {
            pipeline.pipe("agent-results-json", "task-1", bytes("{\"specversion\":\"1.0\",\"id\":\"e-1\",\"source\":\"a\","
                    + "\"type\":\"t\",\"apikey\":\"sk-live-0123456789\",\"data\":{\"status\":\"success\",\"data\":1}}"),
                    headers("content-type", "application/cloudevents+json"));

            assertThat(headerList(pipeline.agentResults().get(0).headers())).containsExactly("ce_specversion=1.0",
                    "ce_id=e-1", "ce_source=a", "ce_type=t", "ce_apikey=[redacted]", "origin-topic=agent-results-json", "origin-partition=0", "origin-offset=0");
        }
    }

    @Test
    void theRecordsOwnTraceparentIsKeptAndContentTypeIsDropped() {
        try (IngestDriver pipeline = new IngestDriver()) {
            String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
            pipeline.pipe("agent-results-json", "task-1", bytes("{\"status\":\"success\",\"data\":1}"), headers(
                    "traceparent", own, "content-type", "application/json", "ce_specversion", "1.0", "ce_id", "e-1",
                    "ce_source", "agent-a", "ce_type", "result", "ce_traceparent", TRACEPARENT, "ce_tracestate", "a=1"));

            assertThat(headerList(pipeline.agentResults().get(0).headers())).containsExactly("traceparent=" + own,
                    "ce_specversion=1.0", "ce_id=e-1", "ce_source=agent-a", "ce_type=result",
                    "ce_traceparent=" + TRACEPARENT, "ce_tracestate=a=1", "origin-topic=agent-results-json", "origin-partition=0", "origin-offset=0");
        }
    }

    @Test
    void aMalformedTraceparentOfTheEventIsNotPromotedToAW3cHeader() {
        try (IngestDriver pipeline = new IngestDriver()) {
            pipeline.pipe("agent-results-json", "task-1", bytes("{\"status\":\"success\",\"data\":1}"), headers(
                    "ce_specversion", "1.0", "ce_id", "e-1", "ce_source", "agent-a", "ce_type", "result",
                    "ce_traceparent", "00-not-a-trace"));

            assertThat(headerList(pipeline.agentResults().get(0).headers())).containsExactly("ce_specversion=1.0",
                    "ce_id=e-1", "ce_source=agent-a", "ce_type=result", "ce_traceparent=00-not-a-trace", "origin-topic=agent-results-json", "origin-partition=0", "origin-offset=0");
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, true",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00, true",
        "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-later, true",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra, false",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, false",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01, false",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01, false",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01, false",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01, false",
    })
    void aTraceparentIsPromotedOnlyWhenW3cTraceContextAcceptsIt(String value, boolean accepted) {
        assertThat(CloudEvents.isTraceparent(value)).isEqualTo(accepted);
    }

    @Test
    void eventsWrittenByTheCloudEventsJavaSdkInEitherModeAreReadAsTheBareResult() {
        Input vat = EVERY_FAMILY.get(0);
        Written bare = publish(Form.BARE, List.of(vat));
        for (Encoding encoding : List.of(Encoding.STRUCTURED, Encoding.BINARY)) {
            try (IngestDriver pipeline = new IngestDriver(); CloudEventSerializer serializer = new CloudEventSerializer()) {
                serializer.configure(Map.of(CloudEventSerializer.ENCODING_CONFIG, encoding,
                        CloudEventSerializer.EVENT_FORMAT_CONFIG, JsonFormat.CONTENT_TYPE), false);
                Headers headers = new RecordHeaders();
                byte[] value = serializer.serialize(vat.topic(), headers, CloudEventBuilder.v1().withId(vat.id())
                        .withSource(URI.create(vat.source())).withType("com.example.agent.result").withSubject(vat.subject())
                        .withTime(OffsetDateTime.parse("2026-03-01T11:59:58Z")).withDataContentType("application/json")
                        .withExtension("traceparent", TRACEPARENT).withData(bytes(vat.data())).build());
                pipeline.pipe(vat.topic(), KEY, value, headers);

                Written wrapped = written(pipeline);
                assertThat(wrapped.rejected()).as(encoding.name()).isEmpty();
                assertThat(wrapped.agentResults()).as(encoding.name()).isEqualTo(bare.agentResults());
                assertThat(wrapped.outcomes()).as(encoding.name()).isEqualTo(bare.outcomes());
            }
        }
    }

    private static Written publish(Form form, List<Input> inputs) {
        try (IngestDriver pipeline = new IngestDriver()) {
            for (Input input : inputs) {
                switch (form) {
                    case BARE -> pipeline.pipe(input.topic(), KEY, bytes(input.data()), bareHeaders(input));
                    case STRUCTURED_WITH_DATA -> pipeline.pipe(input.topic(), KEY, bytes(envelope(input,
                            "\"data\":" + input.data())), headers("content-type", "application/cloudevents+json; charset=UTF-8"));
                    case STRUCTURED_WITH_DATA_BASE64 -> pipeline.pipe(input.topic(), KEY, bytes(envelope(input,
                            "\"data_base64\":\"" + Base64.getEncoder().encodeToString(bytes(input.data())) + "\"")),
                            headers("content-type", "application/cloudevents+json"));
                    case STRUCTURED_WITHOUT_CONTENT_TYPE -> pipeline.pipe(input.topic(), KEY, bytes(envelope(input,
                            "\"data\":" + input.data())), headers());
                    case BINARY -> pipeline.pipe(input.topic(), KEY, bytes(input.data()), binaryHeaders(input));
                }
            }
            return written(pipeline);
        }
    }

    private static Written written(IngestDriver pipeline) {
        return new Written(pairs(pipeline.agentResults()), pairs(pipeline.nodeFinished()),
                pairs(pipeline.continuationEvents()), pipeline.outcomes().stream().map(r -> KeyValue.pair(r.key(),
                // the time of classification, and the retry delay's random jitter, differ from run to run
                ClassifiedOutcome.newBuilder(r.value()).setClassifiedAt(Instant.EPOCH.toEpochMilli()).setRetryDelayMs(null)
                        .setRetryDelayReason(null).build())).toList(), pipeline.rejected());
    }

    private static <V> List<KeyValue<String, V>> pairs(List<TestRecord<String, V>> records) {
        return records.stream().map(r -> KeyValue.pair(r.key(), r.value())).toList();
    }

    /** The identity a CloudEvent carries, in this project's headers instead. */
    private static Headers bareHeaders(Input input) {
        return switch (input.topic()) {
            case "agent-results-json" -> headers("result-id", input.id(), "agent-id", input.source(), "task-id", input.subject());
            case "node-finished-json" -> headers("job-id", input.subject());
            default -> headers("agent-id", input.source());
        };
    }

    private static String envelope(Input input, String dataMember) {
        return "{\"specversion\":\"1.0\",\"id\":\"" + input.id() + "\",\"source\":\"" + input.source()
                + "\",\"type\":\"com.example.agent.result\",\"subject\":\"" + input.subject()
                + "\",\"time\":\"2026-03-01T11:59:58Z\",\"datacontenttype\":\"application/json\",\"traceparent\":\""
                + TRACEPARENT + "\"," + dataMember + "}";
    }

    private static Headers binaryHeaders(Input input, String... more) {
        List<String> pairs = new ArrayList<>(List.of("ce_specversion", "1.0", "ce_id", input.id(), "ce_source",
                input.source(), "ce_type", "com.example.agent.result", "ce_subject", input.subject(), "ce_time",
                "2026-03-01T11:59:58Z", "ce_traceparent", TRACEPARENT, "content-type", "application/json"));
        pairs.addAll(List.of(more));
        return headers(pairs.toArray(String[]::new));
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String header(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static List<String> headerList(Headers headers) {
        List<String> list = new ArrayList<>();
        headers.forEach(h -> list.add(h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8)));
        return list;
    }
}
