package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * One OTLP request in, one canonical result per GenAI span that completes work out ({@link OtlpDialect}), each keyed by
 * its task, with the record's headers (scrubbed and stamped as every input's, {@link InputHeaders}) and the span's own
 * W3C {@code traceparent} and {@code tracestate}. Other spans are skipped and counted (sensor {@value #SKIPPED}). A
 * request that cannot be read goes to {@code rejected-input} whole; a span that cannot be mapped goes there alone, with
 * its reason and where it was ({@value #SPAN_HEADER}), and its neighbours go on.
 */
public final class OtlpSpansProcessor implements Processor<byte[], byte[], Object, Object> {
    /** The sensor counting spans that are no GenAI span completing work: metrics {@code otlp-spans-skipped-total}, {@code -rate}. */
    public static final String SKIPPED = "otlp-spans-skipped";
    /** On a span refused alone: where it was in its request, e.g. {@code resourceSpans[0].scopeSpans[0].spans[3]}. */
    static final String SPAN_HEADER = "rejected.otlp.span";
    /**
     * The most header bytes an OTLP request may carry: they are copied onto every result of the request (up to
     * {@value OtlpLimits#MAX_SPANS}), so the bound of other inputs (64 KiB) would let one record write 640 MB.
     */
    static final int MAX_HEADER_BYTES = 4 * 1024;

    private final int maxBytes;
    private final InputHeaders accepted = new InputHeaders();
    private final EventTimeBound eventTime;
    private final String topic;
    private final Map<RejectionReason, Sensor> rejections = new EnumMap<>(RejectionReason.class);
    private final String canonicalSink;
    private final String rejectedSink;
    private ProcessorContext<Object, Object> context;
    private Sensor skipped;

    OtlpSpansProcessor(InputLimits limits, String topic, String canonicalSink, String rejectedSink) {
        this.maxBytes = limits.maxRecordBytes();
        this.eventTime = new EventTimeBound(limits.maxClockSkew());
        this.topic = topic;
        this.canonicalSink = canonicalSink;
        this.rejectedSink = rejectedSink;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        eventTime.init(context, topic);
        skipped = context.metrics().addRateTotalSensor(InvalidInputException.METRICS_SCOPE, topic, SKIPPED,
                Sensor.RecordingLevel.INFO);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        List<OtlpSpan> spans;
        RecordContext source;
        try {
            if (record.value() == null) {
                throw new InvalidInputException(RejectionReason.UNPARSEABLE_PROTOBUF, "empty record (null value)");
            }
            if (record.value().length > maxBytes) {
                throw new InvalidInputException(RejectionReason.TOO_LARGE, "a value of " + record.value().length
                        + " bytes is longer than " + InputLimits.MAX_RECORD_BYTES_CONFIG + " " + maxBytes);
            }
            int headerBytes = InputHeaders.headerBytes(record.headers());
            if (headerBytes > MAX_HEADER_BYTES) {
                throw new InvalidInputException(RejectionReason.TOO_LARGE, "headers of " + headerBytes
                        + " bytes are more than " + MAX_HEADER_BYTES + " (an OTLP request's are copied onto each of its results)");
            }
            spans = OtlpRequests.read(record.value());
            source = new RecordContext(null, record.headers(), metadata.topic(), metadata.partition(), metadata.offset(),
                    Instant.ofEpochMilli(record.timestamp()));
        } catch (InvalidInputException e) {
            rejectRequest(record, e, metadata);
            return;
        }
        Headers common = spans.isEmpty() ? null : accepted.accept(record.headers(), metadata);
        // What the copies of refused spans may add up to: the request's own bound. Each carries its resource, so
        // without it a large resource and thousands of bad spans would write gigabytes from one record.
        long refusedBudget = maxBytes;
        for (OtlpSpan span : spans) {
            try {
                AgentResult result = OtlpDialect.map(span, source);
                if (result == null) {
                    skipped.record();
                    continue;
                }
                InputBounds.check(result);
                Headers headers = new RecordHeaders(common.toArray());
                set(headers, CloudEvents.TRACEPARENT, OtlpDialect.traceparent(span.span()));
                if (span.span().getTraceState().isEmpty()) {
                    headers.remove(CloudEvents.TRACESTATE);
                } else {
                    set(headers, CloudEvents.TRACESTATE, span.span().getTraceState());
                }
                long timestamp = eventTime.bound(record.timestamp(), context.currentSystemTimeMs(), headers);
                context.forward(new Record<Object, Object>(result.getTaskId(), result, timestamp, headers), canonicalSink);
            } catch (InvalidInputException e) {
                refusedBudget -= rejectSpan(record, span, e, metadata, refusedBudget);
            }
        }
    }

    private void rejectRequest(Record<byte[], byte[]> record, InvalidInputException e, RecordMetadata metadata) {
        rejectionSensor(e.kind()).record();
        Headers headers = RejectedInput.copyHeaders(record.headers());
        byte[] value = record.value();
        boolean json = value != null && OtlpRequests.isJson(value);
        value = e.kind() == RejectionReason.TOO_LARGE && value != null && value.length > maxBytes
                ? RejectedInput.dropValue(value, headers) : OtlpRejections.scrubRequest(value, json, headers);
        RejectedInput.describe(headers, e, e.kind().label(), metadata);
        context.forward(new Record<Object, Object>(RejectedInput.boundedKey(record.key(), headers), value, record.timestamp(),
                headers), rejectedSink);
    }

    /** Writes a refused span alone; its copy is dropped, with its length, past {@code budget}. The bytes it used. */
    private int rejectSpan(Record<byte[], byte[]> record, OtlpSpan span, InvalidInputException e, RecordMetadata metadata,
                           long budget) {
        rejectionSensor(e.kind()).record();
        Headers headers = RejectedInput.copyHeaders(record.headers());
        byte[] value = OtlpRejections.span(span, headers);
        int used = value.length;
        if (value.length > budget) {
            value = RejectedInput.dropValue(value, headers);
            used = 0;
        }
        RejectedInput.describe(headers, e, e.kind().label(), metadata);
        RejectedInput.add(headers, SPAN_HEADER, span.at());
        context.forward(new Record<Object, Object>(RejectedInput.boundedKey(record.key(), headers), value, record.timestamp(),
                headers), rejectedSink);
        return used;
    }

    private static void set(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private Sensor rejectionSensor(RejectionReason kind) {
        return rejections.computeIfAbsent(kind, k -> context.metrics().addRateTotalSensor(
                InvalidInputException.METRICS_SCOPE, topic, k.sensor(), Sensor.RecordingLevel.INFO));
    }
}
