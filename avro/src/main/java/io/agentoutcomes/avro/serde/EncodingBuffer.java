package io.agentoutcomes.avro.serde;

import java.io.OutputStream;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * A stream thread's reusable room to encode a record into: a growing byte array (not synchronized, unlike
 * {@code ByteArrayOutputStream}) behind Avro's buffered binary encoder, both kept for the thread's next record. Only
 * the finished record is copied out.
 */
final class EncodingBuffer extends OutputStream {
    private static final ThreadLocal<EncodingBuffer> BUFFERS = ThreadLocal.withInitial(EncodingBuffer::new);
    /** A buffer that grew past this (a rare huge record) is not kept. */
    private static final int KEPT_CAPACITY = 64 * 1024;

    private byte[] bytes = new byte[1024];
    private int count;
    private BinaryEncoder encoder;

    /** This thread's buffer, emptied, with its encoder ready (whatever a failed encoding left in it discarded). */
    static EncodingBuffer get() {
        EncodingBuffer buffer = BUFFERS.get();
        buffer.encoder = EncoderFactory.get().binaryEncoder(buffer, buffer.encoder);
        if (buffer.bytes.length > KEPT_CAPACITY) {
            buffer.bytes = new byte[1024];
        }
        buffer.count = 0;
        return buffer;
    }

    /** Writes the Confluent wire-format header: magic byte and the schema id, big-endian. */
    void writeHeader(int schemaId) {
        ensure(WireFormat.HEADER_SIZE);
        bytes[count++] = WireFormat.MAGIC_BYTE;
        bytes[count++] = (byte) (schemaId >>> 24);
        bytes[count++] = (byte) (schemaId >>> 16);
        bytes[count++] = (byte) (schemaId >>> 8);
        bytes[count++] = (byte) schemaId;
    }

    /** A buffered encoder writing into this buffer (flush it before {@link #toByteArray}). */
    BinaryEncoder encoder() {
        return encoder;
    }

    @Override
    public void write(int b) {
        ensure(1);
        bytes[count++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, count, length);
        count += length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, count);
    }

    private void ensure(int more) {
        if (count + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, count + more));
        }
    }
}
