package io.agentoutcomes.topology.analytics;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Durations as an HdrHistogram (1 ms to 1 day, 3 significant digits: any percentile within 0.1 %), kept in
 * aggregates as its compressed bytes so partial aggregates from partitions and windows merge exactly. In memory an
 * {@link IntCountsHistogram} that grows with the longest duration it holds: 8 KB of counts up to 2 s, 4 KB more per
 * doubling (a fixed range of 1 ms to 1 day would be a 280 KB array, allocated and zeroed at every decode). Not a
 * {@code PackedHistogram}: smaller still, but recording into it, reading a percentile from it and adding it to another
 * search its packed array at every index (the analytics' single largest cost in the profile of issue 18).
 */
public final class DurationSketch {
    static final long HIGHEST_MS = 86_400_000L;
    static final int DIGITS = 3;

    /** Room to encode into: a histogram's worst case is far larger than its compressed form. */
    private static final ThreadLocal<ByteBuffer> SCRATCH = ThreadLocal.withInitial(() -> ByteBuffer.allocate(0));

    private DurationSketch() {
    }

    /** An empty sketch, growing as longer durations are recorded. */
    public static AbstractHistogram empty() {
        IntCountsHistogram histogram = new IntCountsHistogram(DIGITS);
        histogram.setAutoResize(true);
        return histogram;
    }

    /** A sketch from its bytes (empty for none), growing as longer durations are recorded or added. */
    public static AbstractHistogram decode(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return empty();
        }
        try {
            IntCountsHistogram histogram = IntCountsHistogram.decodeFromCompressedByteBuffer(bytes.duplicate(), 1);
            histogram.setAutoResize(true);
            return histogram;
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a duration sketch: " + e.getMessage(), e);
        }
    }

    public static ByteBuffer encode(AbstractHistogram histogram) {
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
    public static long record(AbstractHistogram histogram, long durationMs) {
        long recorded = Math.min(HIGHEST_MS, Math.max(1, durationMs));
        histogram.recordValue(recorded);
        return recorded;
    }
}
