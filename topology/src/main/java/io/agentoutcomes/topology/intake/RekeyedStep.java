package io.agentoutcomes.topology.intake;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * The {@link IntakeStep} of records that came back from the by-key repartition topic, keyed anew: {@link AcceptInput}
 * applies it to the others. Only records their producer keyed otherwise pass here.
 */
final class RekeyedStep<V> implements FixedKeyProcessor<String, V, V> {
    private final IntakeStep<V> step;
    private FixedKeyProcessorContext<String, V> context;

    RekeyedStep(IntakeStep<V> step) {
        this.step = step;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, V> context) {
        this.context = context;
        step.init(context);
    }

    @Override
    public void process(FixedKeyRecord<String, V> record) {
        V value = record.value();
        V prepared = step.apply(value, record.headers(), record.timestamp());
        context.forward(prepared == value ? record : record.withValue(prepared));
    }
}
