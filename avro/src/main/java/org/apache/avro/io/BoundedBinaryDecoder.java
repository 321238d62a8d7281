package org.apache.avro.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.SystemLimitException;
import org.apache.avro.util.Utf8;

/**
 * A binary decoder over one record's bytes that refuses any length or item count larger than the bytes left in the
 * record, before anything is allocated for it. Avro's own decoder allocates what the data claims: 36 bytes claiming an
 * array of 2^31 items, or a string of 2 GB, ask for gigabytes ({@link SystemLimitException}'s limits are JVM-wide and
 * default to the largest array). Every string, byte string and array or map item of the contract takes at least one
 * byte, so nothing valid is refused.
 * <p>
 * In Avro's package because the decoder's position and limit are visible only there: the bound costs one subtraction,
 * no copy and no second pass. One instance per thread, re-pointed at each record with {@link #reset}.
 */
public final class BoundedBinaryDecoder extends BinaryDecoder {

    public BoundedBinaryDecoder() {
        super(new byte[0], 0, 0);
    }

    /** Points the decoder at {@code length} bytes of {@code data} from {@code offset}. */
    public BoundedBinaryDecoder reset(byte[] data, int offset, int length) {
        configure(data, offset, length);
        return this;
    }

    private long bytesLeft() {
        return (long) getLimit() - getPos();
    }

    /** A length or count the data claims, if the bytes left can hold it. */
    private long bounded(long claimed, String what) {
        long left = bytesLeft();
        if (claimed < 0 || claimed > left) {
            throw new SystemLimitException("the data claims " + what + " of " + claimed + " with " + left
                    + " bytes left in the record");
        }
        return claimed;
    }

    @Override
    protected long doReadItemCount() throws IOException {
        return bounded(super.doReadItemCount(), "a block of items");
    }

    @Override
    public long skipArray() throws IOException {
        return bounded(super.skipArray(), "a block of items");
    }

    @Override
    public long skipMap() throws IOException {
        return bounded(super.skipMap(), "a block of entries");
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = (int) bounded(readLong(), "a string");
        Utf8 result = old != null ? old : new Utf8();
        result.setByteLength(length);
        if (length != 0) {
            doReadBytes(result.getBytes(), 0, length);
        }
        return result;
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int length = (int) bounded(readLong(), "bytes");
        ByteBuffer result;
        if (old != null && length <= old.capacity()) {
            result = old;
            result.clear();
        } else {
            result = ByteBuffer.allocate(length);
        }
        doReadBytes(result.array(), result.position(), length);
        result.limit(length);
        return result;
    }
}
