package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.ingest.OtelSdkSpans.Encoding;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hostile OTLP input on the ingest stage: a request that cannot be read goes to {@code rejected-input} whole, with its
 * reason; a span that cannot be mapped goes there alone while its neighbours become results.
 */
class OtlpRejectionsTest {
    private static final int LIMIT = 16 * 1024 * 1024;

    private final StageDriver stage = StageDriver.stage((builder, topics) ->
            IngestTopology.buildOtlp(builder, topics, new InputLimits(LIMIT)));
    private final TestInputTopic<byte[], byte[]> otlpSpans = stage.bytesInput(stage.topics.otlpSpans.name());
    private final TestOutputTopic<String, AgentResult> agentResults = stage.output(stage.topics.agentResults);
    private final TestOutputTopic<byte[], byte[]> rejected = stage.bytesOutput(stage.topics.rejectedInput.name());
    private final OtelSdkSpans sdk = new OtelSdkSpans("billing-bot");

    @AfterEach
    void close() {
        sdk.close();
        stage.close();
    }

    private void send(byte[] request) {
        otlpSpans.pipeInput(StageDriver.bytesRecord(null, request, new RecordHeaders(), T0));
    }

    private static String header(Headers headers, String name) {
        return headers.lastHeader(name) == null ? null : new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private Span chat(String task) {
        return sdk.span("chat gpt-4o", SpanKind.CLIENT, null, T0, T0.plusMillis(10), Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o", "agent_outcomes.task.id", task,
                "gen_ai.usage.input_tokens", 10L, "gen_ai.usage.output_tokens", 1L));
    }

    private double rejectedCount(String reason) {
        return stage.metricTotal("stream-agent-outcomes-ingest-metrics", "rejected-" + reason + "-total",
                "agent-outcomes-ingest-id", stage.topics.otlpSpans.name());
    }

    @Test
    void aTruncatedProtobufRequestIsRejectedWholeAsItCame() {
        chat("a");
        chat("b");
        byte[] request = sdk.request(Encoding.OTLP_PROTO);
        byte[] truncated = Arrays.copyOf(request, request.length / 2);

        send(truncated);

        assertThat(agentResults.isEmpty()).isTrue();
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("unparseable-protobuf");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).startsWith(
                "not an OTLP ExportTraceServiceRequest (otlp_proto): While parsing a protocol message, the input ended unexpectedly");
        assertThat(refused.getValue()).isEqualTo(truncated);
        assertThat(rejectedCount("unparseable-protobuf")).isEqualTo(1.0);
    }

    @Test
    void aTruncatedJsonRequestIsRejectedWholeAsUnparseableJson() {
        chat("a");
        byte[] request = sdk.request(Encoding.OTLP_JSON);

        send(Arrays.copyOf(request, request.length - 5));

        assertThat(agentResults.isEmpty()).isTrue();
        assertThat(header(rejected.readRecord().getHeaders(), RejectedInput.REASON)).isEqualTo("unparseable-json");
    }

    @Test
    void aRequestOfMoreSpansThanTheBoundIsRejectedWholeWithoutMappingASpan() {
        // 100 000 empty spans are two bytes each: 200 000 bytes, well within input.max.record.bytes' default
        ScopeSpans.Builder scope = ScopeSpans.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            scope.addSpans(io.opentelemetry.proto.trace.v1.Span.getDefaultInstance());
        }
        byte[] request = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(scope))
                .build().toByteArray();
        assertThat(request.length).isLessThan(InputLimits.defaults().maxRecordBytes());

        send(request);

        assertThat(agentResults.isEmpty()).isTrue();
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("too-large");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).isEqualTo("a request of 100000 spans: more than 10000 "
                + "(the Collector's batch processor bounds its batches with send_batch_max_size)");
        assertThat(refused.getValue()).isEqualTo(request);
        assertThat(rejected.isEmpty()).isTrue();
    }

    @Test
    void aSpanWithoutIdsIsRefusedAloneAndItsNeighboursFlow() {
        chat("before");
        chat("missing");
        chat("after");
        ExportTraceServiceRequest request = parse(sdk.request(Encoding.OTLP_PROTO));
        ScopeSpans.Builder scope = request.getResourceSpans(0).getScopeSpans(0).toBuilder();
        scope.setSpans(1, scope.getSpans(1).toBuilder().setSpanId(ByteString.EMPTY).setTraceId(ByteString.EMPTY));
        ResourceSpans resource = request.getResourceSpans(0).toBuilder().setScopeSpans(0, scope).build();

        send(ExportTraceServiceRequest.newBuilder().addResourceSpans(resource).build().toByteArray());

        assertThat(agentResults.readValuesToList()).extracting(AgentResult::getTaskId).containsExactly("before", "after");
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("missing-field");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).isEqualTo("resourceSpans[0].scopeSpans[0].spans[1] "
                + "traceId is missing: every span has a trace id and a span id");
        assertThat(header(refused.getHeaders(), OtlpSpansProcessor.SPAN_HEADER)).isEqualTo("resourceSpans[0].scopeSpans[0].spans[1]");
        // the span alone, with its resource and scope, as a request that can be sent again once fixed
        ExportTraceServiceRequest alone = parse(refused.getValue());
        assertThat(alone.getResourceSpans(0).getScopeSpans(0).getSpansList()).containsExactly(scope.getSpans(1));
        assertThat(alone.getResourceSpans(0).getResource()).isEqualTo(resource.getResource());
    }

    @Test
    void aSpanWhoseIdIsNotHexIsRefusedAloneInJsonAndCarriedAsItCame() throws IOException {
        chat("before");
        chat("bad-id");
        ObjectNode request = (ObjectNode) BoundedJson.MAPPER.readTree(sdk.request(Encoding.OTLP_JSON));
        ObjectNode bad = (ObjectNode) request.at("/resourceSpans/0/scopeSpans/0/spans/1");
        bad.put("spanId", "AAECAwQFBgc="); // base64, as protobuf's own JSON would write it

        send(request.toString().getBytes(StandardCharsets.UTF_8));

        assertThat(agentResults.readValuesToList()).extracting(AgentResult::getTaskId).containsExactly("before");
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("wrong-type");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).isEqualTo("resourceSpans[0].scopeSpans[0].spans[1].spanId "
                + "is 'AAECAwQFBgc=': expected 16 hex digits (OTLP/JSON writes ids in hex, not base64)");
        assertThat(BoundedJson.MAPPER.readTree(refused.getValue()).at("/resourceSpans/0/scopeSpans/0/spans")).containsExactly(bad);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aHugeValueOfAnAttributeTheDialectReadsRefusesItsSpanWhileAHugePromptIsNotRead(Encoding encoding) {
        chat("before");
        Map<String, Object> huge = new HashMap<>(Map.of("gen_ai.operation.name", "chat", "gen_ai.agent.id", "a".repeat(300_000)));
        sdk.span("chat gpt-4o", SpanKind.CLIENT, null, T0, T0.plusMillis(10), huge);
        sdk.span("chat gpt-4o", SpanKind.CLIENT, null, T0, T0.plusMillis(10), Map.of("gen_ai.operation.name", "chat",
                "agent_outcomes.task.id", "long-prompt", "gen_ai.input.messages", "[{\"role\":\"user\",\"parts\":[{\"type\":"
                        + "\"text\",\"content\":\"" + "b".repeat(300_000) + "\"}]}]"));

        send(sdk.request(encoding));

        assertThat(agentResults.readValuesToList()).extracting(AgentResult::getTaskId).containsExactly("before", "long-prompt");
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("too-large");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).isEqualTo("resourceSpans[0].scopeSpans[0].spans[1] "
                + "attribute gen_ai.agent.id is 300000 characters long: more than 1024");
        assertThat(rejected.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aSpanOfMoreAttributesThanTheBoundIsRefusedAlone(Encoding encoding) {
        Map<String, Object> many = new HashMap<>(Map.of("gen_ai.operation.name", "chat"));
        for (int i = 0; i < 200; i++) {
            many.put("custom." + i, (long) i);
        }
        sdk.span("chat gpt-4o", SpanKind.CLIENT, null, T0, T0.plusMillis(10), many);
        chat("after");

        send(sdk.request(encoding));

        assertThat(agentResults.readValuesToList()).extracting(AgentResult::getTaskId).containsExactly("after");
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("too-large");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).endsWith("has 201 attributes: more than 128");
    }

    @Test
    void aRefusedSpansCredentialsAreScrubbedFromWhatRejectedInputKeeps() {
        sdk.span("chat gpt-4o", SpanKind.CLIENT, null, T0, T0.plusMillis(10), Map.of("gen_ai.operation.name", "chat",
                "gen_ai.agent.id", "x".repeat(2000), "http.request.header.authorization", "Bearer sk-proj-abcdefghijklmnop1234",
                "note", "retrying with api_key=sk-proj-abcdefghijklmnop1234"));

        send(sdk.request(Encoding.OTLP_PROTO));

        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REDACTED)).isEqualTo("true");
        assertThat(new String(refused.getValue(), StandardCharsets.ISO_8859_1)).doesNotContain("sk-proj-abcdefghijklmnop1234");
        assertThat(parse(refused.getValue()).getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesList())
                .filteredOn(a -> a.getKey().equals("http.request.header.authorization"))
                .extracting(a -> a.getValue().getStringValue()).containsExactly("Bearer [redacted]");
    }

    private static ExportTraceServiceRequest parse(byte[] request) {
        try {
            return ExportTraceServiceRequest.parseFrom(request);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }


    @Test
    void aRequestWhoseHeadersWouldBeCopiedOntoEveryResultBeyondTheBoundIsRejectedWhole() {
        chat("a");
        RecordHeaders headers = new RecordHeaders();
        headers.add("x-collector-metadata", "m".repeat(5000).getBytes(StandardCharsets.UTF_8));

        otlpSpans.pipeInput(StageDriver.bytesRecord(null, sdk.request(Encoding.OTLP_PROTO), headers, T0));

        assertThat(agentResults.isEmpty()).isTrue();
        TestRecord<byte[], byte[]> refused = rejected.readRecord();
        assertThat(header(refused.getHeaders(), RejectedInput.REASON)).isEqualTo("too-large");
        assertThat(header(refused.getHeaders(), RejectedInput.MESSAGE)).isEqualTo("headers of 5020 bytes are more than 4096 "
                + "(an OTLP request's are copied onto each of its results)");
    }

    @Test
    void theCopiesOfRefusedSpansAddUpToNoMoreThanTheRequestsBoundTheRestAreRefusedWithoutTheirCopy() {
        chat("template");
        ExportTraceServiceRequest one = parse(sdk.request(Encoding.OTLP_PROTO));
        io.opentelemetry.proto.trace.v1.Span missingIds = one.getResourceSpans(0).getScopeSpans(0).getSpans(0).toBuilder()
                .clearTraceId().clearSpanId().build();
        ScopeSpans.Builder scope = ScopeSpans.newBuilder();
        for (int i = 0; i < 60; i++) {
            scope.addSpans(missingIds);
        }
        // a resource attribute the dialect does not read, repeated in the copy of each refused span
        ResourceSpans resource = ResourceSpans.newBuilder().setResource(one.getResourceSpans(0).getResource().toBuilder()
                .addAttributes(io.opentelemetry.proto.common.v1.KeyValue.newBuilder().setKey("deployment.notes")
                        .setValue(io.opentelemetry.proto.common.v1.AnyValue.newBuilder().setStringValue("n".repeat(300_000)))))
                .addScopeSpans(scope).build();

        send(ExportTraceServiceRequest.newBuilder().addResourceSpans(resource).build().toByteArray());

        java.util.List<TestRecord<byte[], byte[]>> refused = rejected.readRecordsToList();
        assertThat(refused).hasSize(60).allSatisfy(r ->
                assertThat(header(r.getHeaders(), RejectedInput.REASON)).isEqualTo("missing-field"));
        int copy = refused.get(0).getValue().length;
        long kept = refused.stream().filter(r -> r.getValue() != null).count();
        assertThat(kept).isEqualTo(LIMIT / copy);
        assertThat(refused.subList((int) kept, 60)).allSatisfy(r -> {
            assertThat(r.getValue()).isNull();
            assertThat(header(r.getHeaders(), RejectedInput.VALUE_DROPPED_BYTES)).isEqualTo(String.valueOf(copy));
        });
    }
}
