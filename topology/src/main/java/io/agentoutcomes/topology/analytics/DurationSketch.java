package io.agentoutcomes.topology.analytics;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * Durations as an HdrHistogram (1 ms to 1 day, 3 significant digits: any percentile within 0.1 %), kept in
 * aggregates as its compressed bytes so partial aggregates from partitions and windows merge exactly. In memory a
 * {@link PackedHistogram}: a window holds a few hundred distinct durations, and a plain histogram of this range is a
 * 280 KB array of counts, allocated and zeroed at every decode (2-4 % of the stream thread in the profile).
 */
public final class DurationSketch {
    static final long HIGHEST_MS = 86_400_000L;
    static final int DIGITS = 3;

    /** Room to encode into: a histogram's worst case is far larger than its compressed form. */
    private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocate(0));

    private DurationSketch() {
    }

    public static Histogram empty() {
        return new PackedHistogram(1, HIGHEST_MS, DIGITS);
    }

    public static Histogram decode(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return empty();
        }
        try {
            return PackedHistogram.decodeFromCompressedByteBuffer(bytes.duplicate(), 1);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a duration sketch: " + e.getMessage(), e);
        }
    }

    public static ByteBuffer encode(Histogram histogram) {
        ByteBuffer scratch = SCRATCH.get();
        int needed = histogram.getNeededByteBufferCapacity();
        if (scratch.capacity() < needed) {
            scratch = ByteBuffer.allocate(needed);
            SCRATCH.set(scratch);
        }
        scratch.clear();
        int length = histogram.encodeIntoCompressedByteBuffer(scratch);
        ByteBuffer encoded = ByteBuffer.allocate(length);
        encoded.put(scratch.array(), 0, length).flip();
        return encoded;
    }

    /** Records a duration, clamped into the sketch's range (1 ms to 1 day); returns the value recorded. */
    public static long record(Histogram histogram, long durationMs) {
        long recorded = Math.min(HIGHEST_MS, Math.max(1, durationMs));
        histogram.recordValue(recorded);
        return recorded;
    }
}
