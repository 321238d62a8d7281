package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.agentoutcomes.avro.AgentResult;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The OTLP dialect on one span (no Kafka): the alias table's precedence and each refusal of a span alone. */
class OtlpDialectTest {
    private static final RecordContext CONTEXT = new RecordContext(null, new RecordHeaders(), "otlp_spans", 0, 7,
            Instant.parse("2026-03-01T12:00:00Z"));
    private static final ByteString TRACE = ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    private static final ByteString SPAN = ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

    private static KeyValue text(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static KeyValue number(String key, long value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setIntValue(value)).build();
    }

    private static Span.Builder chat(KeyValue... attributes) {
        return Span.newBuilder().setTraceId(TRACE).setSpanId(SPAN).setStartTimeUnixNano(1_000_000_000L)
                .setEndTimeUnixNano(1_250_000_000L).addAttributes(text("gen_ai.operation.name", "chat"))
                .addAllAttributes(List.of(attributes));
    }

    private static AgentResult map(Span span, KeyValue... resource) {
        return OtlpDialect.map(new OtlpSpan(List.of(resource), InstrumentationScope.getDefaultInstance(), span, 0, 0, 3,
                null, null), CONTEXT);
    }

    private static void refused(Span span, RejectionReason kind, String message) {
        assertThatThrownBy(() -> map(span, text("service.name", "bot")))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.kind()).isEqualTo(kind))
                .hasMessage(message);
    }

    @Test
    void theCurrentNameWinsOverAnOlderOneAndTheSpanOverItsResource() {
        AgentResult result = map(chat(text("gen_ai.system", "azure"), text("gen_ai.provider.name", "openai"),
                        number("gen_ai.usage.prompt_tokens", 99), number("gen_ai.usage.input_tokens", 10)).build(),
                text("gen_ai.provider.name", "resource-provider"), text("gen_ai.agent.id", "resource-agent"),
                text("service.name", "svc"), text("gen_ai.request.model", "gpt-4o-mini"));

        assertThat(result.getExecution().getProvider()).isEqualTo("openai");
        assertThat(result.getExecution().getUsage().getInputTokens()).isEqualTo(10L);
        assertThat(result.getAgentId()).isEqualTo("resource-agent");
        assertThat(result.getExecution().getModel()).isEqualTo("gpt-4o-mini");
        assertThat(result.getExecution().getDurationMs()).isEqualTo(250L);
    }

    @Test
    void aSpanOfAnOperationThatCompletesNoWorkIsSkipped() {
        assertThat(map(chat().clearAttributes().addAttributes(text("gen_ai.operation.name", "create_agent")).build(),
                text("service.name", "bot"))).isNull();
        assertThat(map(chat().clearAttributes().build(), text("service.name", "bot"))).isNull();
    }

    @Test
    void eachBadSpanIsRefusedWithItsReason() {
        refused(chat().setEndTimeUnixNano(1).build(), RejectionReason.OUT_OF_RANGE,
                "resourceSpans[0].scopeSpans[0].spans[3] ends before it starts (endTimeUnixNano 1 < startTimeUnixNano 1000000000)");
        refused(chat().setTraceId(ByteString.copyFrom(new byte[16])).build(), RejectionReason.OUT_OF_RANGE,
                "resourceSpans[0].scopeSpans[0].spans[3] traceId is all zeros: an invalid id (W3C Trace Context)");
        refused(chat().setSpanId(ByteString.copyFrom(new byte[] {1, 2, 3})).build(), RejectionReason.WRONG_TYPE,
                "resourceSpans[0].scopeSpans[0].spans[3] spanId is 3 bytes: expected 8");
        refused(chat(text("gen_ai.usage.input_tokens", "ten")).build(), RejectionReason.WRONG_TYPE,
                "resourceSpans[0].scopeSpans[0].spans[3] attribute gen_ai.usage.input_tokens is 'ten': expected a whole number");
        refused(chat(number("gen_ai.usage.completion_tokens", -1)).build(), RejectionReason.OUT_OF_RANGE,
                "resourceSpans[0].scopeSpans[0].spans[3] attribute gen_ai.usage.completion_tokens is -1: must not be negative");
        refused(chat().setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR)
                        .setMessage("x".repeat(8193))).build(), RejectionReason.TOO_LARGE,
                "resourceSpans[0].scopeSpans[0].spans[3] status message is 8193 characters long: more than 8192");
        assertThatThrownBy(() -> map(chat().build()))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.kind()).isEqualTo(RejectionReason.MISSING_FIELD))
                .hasMessage("agent id is missing: resourceSpans[0].scopeSpans[0].spans[3] has no gen_ai.agent.id, "
                        + "gen_ai.agent.name or resource service.name");
    }

    @Test
    void aResourceOfMoreAttributesThanTheBoundRefusesItsSpans() {
        List<KeyValue> many = new ArrayList<>();
        for (int i = 0; i < 129; i++) {
            many.add(number("custom." + i, i));
        }
        assertThatThrownBy(() -> map(chat().build(), many.toArray(KeyValue[]::new)))
                .hasMessage("the resource of resourceSpans[0].scopeSpans[0].spans[3] has 129 attributes: more than 128");
    }
}
