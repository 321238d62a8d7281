package io.agentoutcomes.topology.intake;

import io.agentoutcomes.topology.ingest.InputBounds;
import io.agentoutcomes.topology.ingest.InputHeaders;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.ingest.InvalidInputException;
import io.agentoutcomes.topology.ingest.RejectionReason;
import java.util.function.Consumer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads an Avro input topic's keys or values within the input's bounds: a key longer than
 * {@value InputLimits#MAX_KEY_BYTES} bytes, a value longer than the limit or missing, headers of more than
 * {@value InputLimits#MAX_HEADER_BYTES} bytes, or a decoded value outside {@link InputBounds} is refused before any
 * stage sees it. Kafka Streams' deserialization handler then sends the record to {@code rejected-input} with this
 * reason (the service's handler keeps the length of a value or key too long, not its bytes).
 */
public final class BoundedDeserializer<T> implements Deserializer<T> {
    private final Deserializer<T> inner;
    private final int maxBytes;
    /** What the refusal of a value too long names: the setting and its value. */
    private final String limit;
    private final boolean key;
    private final Consumer<T> bounds;

    private BoundedDeserializer(Deserializer<T> inner, int maxBytes, String limit, boolean key, Consumer<T> bounds) {
        this.inner = inner;
        this.maxBytes = maxBytes;
        this.limit = limit;
        this.key = key;
        this.bounds = bounds;
    }

    /** Keys: null or at most {@value InputLimits#MAX_KEY_BYTES} bytes. */
    public static <T> BoundedDeserializer<T> keys(Deserializer<T> inner) {
        return new BoundedDeserializer<>(inner, InputLimits.MAX_KEY_BYTES, String.valueOf(InputLimits.MAX_KEY_BYTES), true,
                value -> { });
    }

    /**
     * Avro values: present, at most {@link InputLimits#maxAvroRecordBytes()} long, with bounded headers, and within
     * {@code bounds} once decoded.
     */
    public static <T> BoundedDeserializer<T> values(Deserializer<T> inner, InputLimits limits, Consumer<T> bounds) {
        return new BoundedDeserializer<>(inner, limits.maxAvroRecordBytes(), InputLimits.MAX_RECORD_BYTES_CONFIG + " "
                + limits.maxRecordBytes() + " (+" + InputLimits.CANONICAL_ALLOWANCE_BYTES + " for Avro)", false, bounds);
    }

    /** A record the pipeline does not take, with the reason ({@code too-large}, {@code out-of-range}, ...). */
    public static final class RefusedValueException extends SerializationException {
        private final String reason;

        RefusedValueException(String reason, String message) {
            super(reason + ": " + message);
            this.reason = reason;
        }

        /** The short reason, as {@code rejected.reason} of JSON input says it. */
        public String reason() {
            return reason;
        }
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return bounded(topic, inner.deserialize(topic, checked(topic, data)));
    }

    @Override
    public T deserialize(String topic, Headers headers, byte[] data) {
        if (!key) {
            int headerBytes = InputHeaders.headerBytes(headers);
            if (headerBytes > InputLimits.MAX_HEADER_BYTES) {
                throw new RefusedValueException(RejectionReason.TOO_LARGE.label(), "headers of " + headerBytes
                        + " bytes on " + topic + " are more than " + InputLimits.MAX_HEADER_BYTES);
            }
        }
        return bounded(topic, inner.deserialize(topic, headers, checked(topic, data)));
    }

    private T bounded(String topic, T value) {
        if (value != null) {
            try {
                bounds.accept(value);
            } catch (InvalidInputException e) {
                throw new RefusedValueException(e.kind().label(), e.getMessage() + " (on " + topic + ")");
            }
        }
        return value;
    }

    private byte[] checked(String topic, byte[] data) {
        if (data == null) {
            if (key) {
                return null;
            }
            // A tombstone means nothing on an input topic: it is rejected, saying so, rather than skipped unseen.
            throw new RefusedValueException("missing-field", "null value: an input record on " + topic + " must have a value");
        }
        if (data.length > maxBytes) {
            throw new RefusedValueException(RejectionReason.TOO_LARGE.label(), (key ? "a key of " : "a value of ")
                    + data.length + " bytes on " + topic + " is longer than " + limit);
        }
        return data;
    }

    @Override
    public void close() {
        inner.close();
    }
}
