package io.agentoutcomes.topology;

import io.agentoutcomes.topology.ingest.InputHeaders;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * The first step of every record read from an Avro input topic: its headers as the pipeline carries them on
 * ({@link InputHeaders}: credentials replaced, provenance stamped with where it was read).
 */
final class AcceptInput<V> implements FixedKeyProcessor<String, V, V> {
    private final InputHeaders headers = new InputHeaders();
    private FixedKeyProcessorContext<String, V> context;

    @Override
    public void init(FixedKeyProcessorContext<String, V> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, V> record) {
        context.forward(record.withHeaders(headers.accept(record.headers(), context.recordMetadata().orElse(null))));
    }
}
