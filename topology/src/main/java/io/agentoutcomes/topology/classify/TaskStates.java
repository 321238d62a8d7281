package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.TaskAttempts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A task's entry in the classifier's store: when it expires (8 bytes, big-endian epoch millis), then the
 * {@link TaskAttempts} in Avro's binary encoding (schema in {@code avro/}). The expiry leads so that a sweep reads it
 * without decoding the rest. Internal state, so no schema-registry header. One instance per stream task (not
 * thread-safe): the encoder and its buffer are reused.
 */
final class TaskStates {
    private static final int EXPIRY_BYTES = Long.BYTES;
    private final SpecificDatumWriter<TaskAttempts> writer = new SpecificDatumWriter<>(TaskAttempts.class);
    private final SpecificDatumReader<TaskAttempts> reader = new SpecificDatumReader<>(TaskAttempts.class);
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    /** When the entry expires, read without decoding the state. */
    static long expiresAt(byte[] entry) {
        return ByteBuffer.wrap(entry, 0, EXPIRY_BYTES).getLong();
    }

    byte[] encode(TaskAttempts state, long expiresAt) {
        buffer.reset();
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer.write((int) (expiresAt >>> shift));
        }
        encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
        try {
            writer.write(state, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    TaskAttempts decode(byte[] entry) {
        decoder = DecoderFactory.get().binaryDecoder(entry, EXPIRY_BYTES, entry.length - EXPIRY_BYTES, decoder);
        try {
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
