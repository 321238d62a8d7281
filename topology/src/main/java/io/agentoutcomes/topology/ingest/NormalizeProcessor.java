package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.topology.ingest.IngestTopology.Ingested;
import io.agentoutcomes.topology.ingest.IngestTopology.Normalizer;
import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.OutputHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Normalizes each record, or marks it rejected with the reason in its headers. */
final class NormalizeProcessor<V> implements Processor<byte[], byte[], byte[], Ingested<V>> {
    private final Normalizer<V> normalizer;
    private final Function<V, String> keyOf;
    private final int maxBytes;
    private final Map<InvalidInputException.Kind, Sensor> rejections = new EnumMap<>(InvalidInputException.Kind.class);
    private ProcessorContext<byte[], Ingested<V>> context;

    NormalizeProcessor(Normalizer<V> normalizer, Function<V, String> keyOf, int maxBytes) {
        this.normalizer = normalizer;
        this.keyOf = keyOf;
        this.maxBytes = maxBytes;
    }

    @Override
    public void init(ProcessorContext<byte[], Ingested<V>> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElseThrow();
        RecordContext source = new RecordContext(
                record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8), record.headers(),
                metadata.topic(), metadata.partition(), metadata.offset(), Instant.ofEpochMilli(record.timestamp()));
        try {
            if (record.value() == null) {
                throw new InvalidInputException(InvalidInputException.Kind.UNPARSEABLE_JSON, "empty record (null value)");
            }
            if (record.value().length > maxBytes) {
                throw new InvalidInputException(InvalidInputException.Kind.TOO_LARGE, "a value of "
                        + record.value().length + " bytes is longer than " + InputLimits.MAX_RECORD_BYTES_CONFIG + " " + maxBytes);
            }
            JsonInput input = CloudEvents.read(record.value(), source);
            V canonical = normalizer.normalize(input.root(), input.context());
            CloudEvent event = input.context().cloudEvent();
            context.forward(new Record<>(record.key(), new Ingested.Normalized<>(keyOf.apply(canonical), canonical),
                    record.timestamp(), OutputHeaders.origin(event == null ? record.headers()
                            : CloudEvents.canonicalHeaders(record.headers(), event), metadata)));
        } catch (InvalidInputException e) {
            rejectionSensor(e.kind(), metadata.topic()).record();
            Headers headers = RejectedInput.copyHeaders(record.headers());
            byte[] value = e.kind() == InvalidInputException.Kind.TOO_LARGE
                    ? RejectedInput.dropValue(record.value(), headers) : RejectedInput.scrubValue(record.value(), headers);
            RejectedInput.describe(headers, e, e.kind().label(), metadata);
            context.forward(new Record<>(record.key(), new Ingested.Rejected<>(value), record.timestamp(), headers));
        }
    }

    private Sensor rejectionSensor(InvalidInputException.Kind kind, String topic) {
        return rejections.computeIfAbsent(kind, k -> context.metrics().addRateTotalSensor(
                "agent-outcomes-ingest", topic, "rejected-" + k.label(), Sensor.RecordingLevel.INFO));
    }
}
