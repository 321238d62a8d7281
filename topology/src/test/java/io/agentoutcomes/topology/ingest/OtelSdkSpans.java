package io.agentoutcomes.topology.ingest;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanLimits;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Spans made by the OpenTelemetry Java SDK itself, serialized by its own OTLP marshalers as the Collector's Kafka
 * exporter writes them ({@code otlp_proto}: the binary {@code ExportTraceServiceRequest}; {@code otlp_json}: OTLP/JSON).
 */
final class OtelSdkSpans implements AutoCloseable {
    /** The two encodings of the Collector's Kafka exporter. */
    enum Encoding { OTLP_PROTO, OTLP_JSON }

    private final List<SpanData> finished = new ArrayList<>();
    private final SdkTracerProvider provider;
    private final Tracer tracer;

    OtelSdkSpans(String serviceName) {
        provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"),
                        serviceName))))
                .setSpanLimits(SpanLimits.builder().setMaxNumberOfAttributes(1000).build())
                .addSpanProcessor(SimpleSpanProcessor.create(new Collecting()))
                .build();
        tracer = provider.get("io.agentoutcomes.test");
    }

    /** A span started and ended at the given times, with attributes (String, Long, Integer or Double values). */
    Span span(String name, SpanKind kind, Span parent, Instant start, Instant end, Map<String, ?> attributes) {
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind)
                .setStartTimestamp(nanos(start), TimeUnit.NANOSECONDS);
        builder = parent == null ? builder.setNoParent() : builder.setParent(Context.root().with(parent));
        Span span = builder.startSpan();
        attributes.forEach((key, value) -> {
            if (value instanceof String text) {
                span.setAttribute(key, text);
            } else if (value instanceof Double number) {
                span.setAttribute(key, number);
            } else {
                span.setAttribute(key, ((Number) value).longValue());
            }
        });
        if (end != null) {
            span.end(nanos(end), TimeUnit.NANOSECONDS);
        }
        return span;
    }

    /** Ends a span as failed, with its status description. */
    static void fail(Span span, String description, Instant end) {
        span.setStatus(StatusCode.ERROR, description);
        span.end(nanos(end), TimeUnit.NANOSECONDS);
    }

    /** Every span ended so far, as one request in the encoding, and forgets them. */
    byte[] request(Encoding encoding) {
        TraceRequestMarshaler marshaler = TraceRequestMarshaler.create(List.copyOf(finished));
        finished.clear();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (encoding == Encoding.OTLP_PROTO) {
                marshaler.writeBinaryTo(out);
            } else {
                marshaler.writeJsonTo(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static long nanos(Instant time) {
        return TimeUnit.SECONDS.toNanos(time.getEpochSecond()) + time.getNano();
    }

    @Override
    public void close() {
        provider.close();
    }

    private final class Collecting implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            finished.addAll(spans);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
