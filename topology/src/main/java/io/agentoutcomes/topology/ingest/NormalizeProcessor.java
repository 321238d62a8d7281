package io.agentoutcomes.topology.ingest;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Normalizes each record, or marks it rejected with the reason in its headers. Bounded before parsing (value, key,
 * headers) and after ({@code bounds}: the canonical record within {@link InputBounds}, as
 * Avro input is); a canonical record goes on with its headers scrubbed of credentials and stamped with where it was
 * read ({@link InputHeaders}), its timestamp bounded by the wall clock ({@link EventTimeBound}). Each record is forwarded to one of two sinks, by name: the canonical topic's
 * (keyed by the canonical record's task, job or agent) or {@code rejected-input}'s (its bytes, scrubbed).
 */
final class NormalizeProcessor<V> implements Processor<byte[], byte[], Object, Object> {
    private final Normalizer<V> normalizer;
    private final Function<V, String> keyOf;
    private final Consumer<V> bounds;
    private final int maxBytes;
    private final InputHeaders accepted = new InputHeaders();
    private final EventTimeBound eventTime;
    private final String topic;
    private final Map<RejectionReason, Sensor> rejections = new EnumMap<>(RejectionReason.class);
    private final String canonicalSink;
    private final String rejectedSink;
    private ProcessorContext<Object, Object> context;

    NormalizeProcessor(Normalizer<V> normalizer, Function<V, String> keyOf, Consumer<V> bounds, InputLimits limits,
                       String topic, String canonicalSink, String rejectedSink) {
        this.normalizer = normalizer;
        this.canonicalSink = canonicalSink;
        this.rejectedSink = rejectedSink;
        this.keyOf = keyOf;
        this.bounds = bounds;
        this.maxBytes = limits.maxRecordBytes();
        this.eventTime = new EventTimeBound(limits.maxClockSkew());
        this.topic = topic;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        eventTime.init(context, topic);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        byte[] key = record.key();
        try {
            if (record.value() == null) {
                throw new InvalidInputException(RejectionReason.UNPARSEABLE_JSON, "empty record (null value)");
            }
            if (record.value().length > maxBytes) {
                throw new InvalidInputException(RejectionReason.TOO_LARGE, "a value of "
                        + record.value().length + " bytes is longer than " + InputLimits.MAX_RECORD_BYTES_CONFIG + " " + maxBytes);
            }
            if (key != null && key.length > InputLimits.MAX_KEY_BYTES) {
                throw new InvalidInputException(RejectionReason.TOO_LARGE, "a key of " + key.length
                        + " bytes is longer than " + InputLimits.MAX_KEY_BYTES);
            }
            checkHeaders(record.headers(), "");
            RecordContext source = new RecordContext(key == null ? null : new String(key, StandardCharsets.UTF_8),
                    record.headers(), metadata.topic(), metadata.partition(), metadata.offset(),
                    Instant.ofEpochMilli(record.timestamp()));
            JsonInput input = CloudEvents.read(record.value(), source);
            V canonical = normalizer.normalize(input.root(), input.context());
            bounds.accept(canonical);
            CloudEvent event = input.context().cloudEvent();
            Headers headers = accepted.accept(event == null ? record.headers()
                    : CloudEvents.canonicalHeaders(record.headers(), event), metadata);
            checkHeaders(headers, " (with the CloudEvent's attributes)");
            long timestamp = eventTime.bound(record.timestamp(), context.currentSystemTimeMs(), headers);
            context.forward(new Record<Object, Object>(keyOf.apply(canonical), canonical, timestamp, headers), canonicalSink);
        } catch (InvalidInputException e) {
            rejectionSensor(e.kind(), metadata.topic()).record();
            Headers headers = RejectedInput.copyHeaders(record.headers());
            byte[] value = e.kind() == RejectionReason.TOO_LARGE && record.value() != null
                    && record.value().length > maxBytes
                    ? RejectedInput.dropValue(record.value(), headers) : RejectedInput.scrubValue(record.value(), headers);
            RejectedInput.describe(headers, e, e.kind().label(), metadata);
            context.forward(new Record<Object, Object>(RejectedInput.boundedKey(key, headers), value, record.timestamp(),
                    headers), rejectedSink);
        }
    }

    private static void checkHeaders(Headers headers, String which) {
        int bytes = InputHeaders.headerBytes(headers);
        if (bytes > InputLimits.MAX_HEADER_BYTES) {
            throw new InvalidInputException(RejectionReason.TOO_LARGE, "headers of " + bytes + " bytes" + which
                    + " are more than " + InputLimits.MAX_HEADER_BYTES);
        }
    }

    private Sensor rejectionSensor(RejectionReason kind, String topic) {
        return rejections.computeIfAbsent(kind, k -> context.metrics().addRateTotalSensor(
                InvalidInputException.METRICS_SCOPE, topic, k.sensor(), Sensor.RecordingLevel.INFO));
    }
}
