package io.agentoutcomes.topology;

import io.agentoutcomes.topology.ingest.EventTimeBound;
import io.agentoutcomes.topology.ingest.InputHeaders;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * The first step of every record read from an Avro input topic: its headers as the pipeline carries them on
 * ({@link InputHeaders}: credentials replaced, provenance stamped with where it was read), and its timestamp bounded by
 * the wall clock ({@link EventTimeBound}).
 */
final class AcceptInput<V> implements FixedKeyProcessor<String, V, V> {
    private final InputHeaders headers = new InputHeaders();
    private final EventTimeBound eventTime;
    private final String topic;
    private FixedKeyProcessorContext<String, V> context;

    AcceptInput(InputLimits limits, String topic) {
        this.eventTime = new EventTimeBound(limits.maxClockSkew());
        this.topic = topic;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, V> context) {
        this.context = context;
        eventTime.init(context, topic);
    }

    @Override
    public void process(FixedKeyRecord<String, V> record) {
        Headers accepted = headers.accept(record.headers(), context.recordMetadata().orElse(null));
        long timestamp = eventTime.bound(record.timestamp(), context.currentSystemTimeMs(), accepted);
        context.forward(record.withHeaders(accepted).withTimestamp(timestamp));
    }
}
