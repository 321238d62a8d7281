package io.agentoutcomes.topology;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Refuses values longer than the input limit, and null values, before decoding them: Kafka Streams' deserialization handler then sends
 * the record to {@code rejected-input} with this reason (the service's handler keeps its length, not its bytes).
 */
final class BoundedDeserializer<T> implements Deserializer<T> {
    private final Deserializer<T> inner;
    private final int maxBytes;

    BoundedDeserializer(Deserializer<T> inner, int maxBytes) {
        this.inner = inner;
        this.maxBytes = maxBytes;
    }

    /** A value the pipeline does not take: too large, or none at all. */
    static final class RefusedValueException extends SerializationException {
        RefusedValueException(String message) {
            super(message);
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        check(topic, data);
        return inner.deserialize(topic, data);
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        check(topic, data);
        return inner.deserialize(topic, headers, data);
    }

    private void check(String topic, byte[] data) {
        if (data == null) {
            // A tombstone means nothing on an input topic: it is rejected, saying so, rather than skipped unseen.
            throw new RefusedValueException("null value: an input record on " + topic + " must have a value");
        }
        if (data.length > maxBytes) {
            throw new RefusedValueException("too-large: a value of " + data.length + " bytes on " + topic + " is longer than "
                    + InputLimits.MAX_RECORD_BYTES_CONFIG + " " + maxBytes);
        }
    }

    @Override
    public void close() {
        inner.close();
    }
}
