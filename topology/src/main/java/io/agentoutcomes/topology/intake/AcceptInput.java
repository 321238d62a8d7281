package io.agentoutcomes.topology.intake;

import io.agentoutcomes.topology.ingest.EventTimeBound;
import io.agentoutcomes.topology.ingest.InputHeaders;
import io.agentoutcomes.topology.ingest.InputLimits;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * The first node of every record read from an Avro input topic, and for most records the only one before
 * classification: its headers as the pipeline carries them on ({@link InputHeaders}: credentials replaced, a
 * producer's provenance headers dropped; stamped with where it was read only when it is re-keyed), its timestamp bounded by the wall clock ({@link EventTimeBound}); then, for an
 * input keyed by its value, the key checked: a record keyed as it should be goes on through the stage's
 * {@link IntakeStep} (agent results: attributed and priced) to {@code <input>-keyed}, any other as accepted to
 * {@code <input>-rekey} and the repartition topic, where the step is applied when it comes back
 * ({@link RekeyedStep}). One node instead of a node per step: each node costs a forward, a copy of the record's
 * context and its metrics.
 */
final class AcceptInput<V> implements FixedKeyProcessor<String, V, V> {
    private final InputHeaders headers = new InputHeaders();
    private final EventTimeBound eventTime;
    private final String topic;
    private final Function<V, String> keyOf;
    private final IntakeStep<V> step;
    private final String keyedChild;
    private final String rekeyChild;
    private FixedKeyProcessorContext<String, V> context;

    /** A record accepted goes on to every child, as it is. */
    AcceptInput(InputLimits limits, String topic) {
        this(limits, topic, null, IntakeStep.none(), null, null);
    }

    /**
     * A record accepted goes on to the child {@code keyedChild} through {@code step} when {@code keyOf} its value is
     * its key (or it has no value), to the child {@code rekeyChild} otherwise.
     */
    AcceptInput(InputLimits limits, String topic, Function<V, String> keyOf, IntakeStep<V> step, String keyedChild,
                String rekeyChild) {
        this.eventTime = new EventTimeBound(limits.maxClockSkew());
        this.topic = topic;
        this.keyOf = keyOf;
        this.step = step;
        this.keyedChild = keyedChild;
        this.rekeyChild = rekeyChild;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, V> context) {
        this.context = context;
        eventTime.init(context, topic);
        step.init(context);
    }

    @Override
    public void process(FixedKeyRecord<String, V> record) {
        // no provenance on what the pipeline writes for the record: the router stamps a dead letter with its position
        Headers accepted = headers.accept(record.headers(), null);
        long timestamp = eventTime.bound(record.timestamp(), context.currentSystemTimeMs(), accepted);
        V value = record.value();
        if (keyOf == null) {
            context.forward(record.withHeaders(accepted).withTimestamp(timestamp));
        } else if (value == null || Objects.equals(record.key(), keyOf.apply(value))) {
            V prepared = step.apply(value, accepted, timestamp);
            FixedKeyRecord<String, V> out = record.withHeaders(accepted).withTimestamp(timestamp);
            context.forward(prepared == value ? out : out.withValue(prepared), keyedChild);
        } else {
            // the repartition topic loses where the record was read: it travels as headers (docs/topics.md#headers)
            headers.stamp(accepted, context.recordMetadata().orElse(null));
            context.forward(record.withHeaders(accepted).withTimestamp(timestamp), rekeyChild);
        }
    }
}
