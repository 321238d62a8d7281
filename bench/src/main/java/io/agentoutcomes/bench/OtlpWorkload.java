package io.agentoutcomes.bench;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * The workload's records as OTLP trace export requests, as the Collector's Kafka exporter writes them: one request per
 * record holding one model-call span ({@code gen_ai.operation.name} chat) carrying the facts of the JSON dialects'
 * records (agent, task, model, provider, tokens, duration; one in ten an error the default policy stops at once).
 * One span per request, so that a record is one result as in the other inputs; the Collector batches many, which
 * costs less per span.
 */
final class OtlpWorkload {
    private OtlpWorkload() {
    }

    /**
     * Record {@code i} of task {@code taskId} as {@code otlp_proto} or {@code otlp_json}, its span ending at
     * {@code endMillis}; a {@code failed} one carries the refusal.
     */
    static byte[] request(long i, String taskId, boolean failed, boolean json, String agent, String model, long endMillis) {
        long durationMs = 100L + i % 900;
        byte[] traceId = ByteBuffer.allocate(16).putLong(0x5eed_0000_0000_0000L).putLong(i + 1).array();
        byte[] spanId = ByteBuffer.allocate(8).putLong(i + 1).array();
        List<String[]> text = List.of(new String[] {"gen_ai.operation.name", "chat"},
                new String[] {"gen_ai.provider.name", "openai"}, new String[] {"gen_ai.request.model", model},
                new String[] {"gen_ai.agent.id", agent}, new String[] {"agent_outcomes.task.id", taskId});
        List<Object[]> numbers = List.of(new Object[] {"gen_ai.usage.input_tokens", 500L},
                new Object[] {"gen_ai.usage.output_tokens", 80L}, new Object[] {"gen_ai.usage.cache_read.input_tokens", 100L});
        long endNanos = endMillis * 1_000_000L;
        long startNanos = endNanos - durationMs * 1_000_000L;
        if (json) {
            StringBuilder attributes = new StringBuilder();
            text.forEach(kv -> attributes.append(attributes.length() == 0 ? "" : ",").append("{\"key\":\"").append(kv[0])
                    .append("\",\"value\":{\"stringValue\":\"").append(kv[1]).append("\"}}"));
            numbers.forEach(kv -> attributes.append(",{\"key\":\"").append(kv[0]).append("\",\"value\":{\"intValue\":\"")
                    .append(kv[1]).append("\"}}"));
            if (failed) {
                attributes.append(",{\"key\":\"error.type\",\"value\":{\"stringValue\":\"llm-refusal\"}}");
            }
            return ("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\""
                    + agent + "\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"bench\"},\"spans\":[{\"traceId\":\""
                    + HexFormat.of().formatHex(traceId) + "\",\"spanId\":\"" + HexFormat.of().formatHex(spanId)
                    + "\",\"name\":\"chat " + model + "\",\"kind\":3,\"startTimeUnixNano\":\"" + startNanos
                    + "\",\"endTimeUnixNano\":\"" + endNanos + "\",\"attributes\":[" + attributes + "],\"status\":{"
                    + (failed ? "\"code\":2,\"message\":\"refused\"" : "") + "}}]}]}]}").getBytes(StandardCharsets.UTF_8);
        }
        Span.Builder span = Span.newBuilder().setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId))
                .setName("chat " + model).setKind(Span.SpanKind.SPAN_KIND_CLIENT).setStartTimeUnixNano(startNanos)
                .setEndTimeUnixNano(endNanos);
        text.forEach(kv -> span.addAttributes(KeyValue.newBuilder().setKey(kv[0])
                .setValue(AnyValue.newBuilder().setStringValue(kv[1]))));
        numbers.forEach(kv -> span.addAttributes(KeyValue.newBuilder().setKey((String) kv[0])
                .setValue(AnyValue.newBuilder().setIntValue((Long) kv[1]))));
        if (failed) {
            span.addAttributes(KeyValue.newBuilder().setKey("error.type").setValue(AnyValue.newBuilder().setStringValue("llm-refusal")));
            span.setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage("refused"));
        }
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                        .setValue(AnyValue.newBuilder().setStringValue(agent))))
                .addScopeSpans(ScopeSpans.newBuilder().setScope(InstrumentationScope.newBuilder().setName("bench"))
                        .addSpans(span))).build().toByteArray();
    }
}
