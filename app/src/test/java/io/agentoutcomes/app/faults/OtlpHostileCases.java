package io.agentoutcomes.app.faults;

import static io.agentoutcomes.app.faults.HostileCase.task;

import com.google.protobuf.ByteString;
import io.agentoutcomes.app.faults.HostileCase.Classified;
import io.agentoutcomes.app.faults.HostileCase.Rejected;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.TopicNames;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The hostile corpus's OTLP cases, on the Collector's default topic {@code otlp_spans} as {@code otlp_proto}: a request
 * refused whole (truncated, 100 000 spans), and spans refused alone (no ids; a 300 000-character agent id beside a
 * credential in the status message) while the good span of the same request is classified.
 */
final class OtlpHostileCases {
    private OtlpHostileCases() {
    }

    /**
     * A span refused alone, with its reason, while the good span of its request (task {@code task(name)}) comes out.
     */
    record RefusedBeside(Rejected rejected, Classified classified) implements HostileCase.Expectation {
    }

    static List<HostileCase> cases(long time, Random random) {
        byte[] good = request(good("otlp-truncated-protobuf", random));
        ScopeSpans.Builder empty = ScopeSpans.newBuilder();
        for (int i = 0; i < 100_000; i++) {
            empty.addSpans(Span.getDefaultInstance());
        }
        return List.of(
                HostileCase.of("otlp-truncated-protobuf", MixedLoad.record(TopicNames.OTLP_SPANS, null, time,
                        Arrays.copyOf(good, good.length / 2)), Rejected.because("unparseable-protobuf")),
                HostileCase.of("otlp-100000-spans", MixedLoad.record(TopicNames.OTLP_SPANS, null, time,
                        ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(empty))
                                .build().toByteArray()), Rejected.because("too-large")),
                beside("otlp-missing-ids", time, random, good("otlp-missing-ids", random).toBuilder().clearTraceId()
                        .clearSpanId().build(), "missing-field"),
                beside("otlp-huge-attribute", time, random, good("otlp-huge-attribute", random).toBuilder()
                        .addAttributes(attribute("gen_ai.agent.id", "h".repeat(300_000)))
                        .setStatus(Status.newBuilder().setCode(Status.StatusCode.STATUS_CODE_ERROR).setMessage(
                                "401 from provider; request had Authorization: Bearer " + HostileCorpus.SECRET_BEARER))
                        .build(), "too-large"));
    }

    private static HostileCase beside(String name, long time, Random random, Span bad, String reason) {
        return HostileCase.of(name, MixedLoad.record(TopicNames.OTLP_SPANS, null, time, request(good(name, random), bad)),
                new RefusedBeside(Rejected.because(reason), Classified.as(task(name), 1, ResultType.SUCCESS)));
    }

    /** A model call's span that completes, of the case's task, with random ids. */
    private static Span good(String name, Random random) {
        byte[] traceId = new byte[16];
        byte[] spanId = new byte[8];
        random.nextBytes(traceId);
        random.nextBytes(spanId);
        traceId[0] |= 1;
        spanId[0] |= 1;
        return Span.newBuilder().setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId))
                .setName("chat gpt-4o-mini").setKind(Span.SpanKind.SPAN_KIND_CLIENT)
                .setStartTimeUnixNano(MixedLoad.EVENT_HOUR.toEpochMilli() * 1_000_000)
                .setEndTimeUnixNano(MixedLoad.EVENT_HOUR.toEpochMilli() * 1_000_000 + 250_000_000)
                .addAttributes(attribute("gen_ai.operation.name", "chat"))
                .addAttributes(attribute("gen_ai.provider.name", "openai"))
                .addAttributes(attribute("gen_ai.request.model", "gpt-4o-mini"))
                .addAttributes(attribute("agent_outcomes.task.id", task(name)))
                .build();
    }

    private static KeyValue attribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static byte[] request(Span... spans) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(io.opentelemetry.proto.resource.v1.Resource.newBuilder()
                        .addAttributes(attribute("service.name", "hostile-agent")))
                .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(List.of(spans)))).build().toByteArray();
    }
}
