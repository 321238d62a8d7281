package io.agentoutcomes.topology.analytics;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Durations as an HdrHistogram (1 ms to 1 day, 3 significant digits: any percentile within 0.1 %), kept in
 * aggregates as its compressed bytes so partial aggregates from partitions and windows merge exactly.
 */
public final class DurationSketch {
    static final long HIGHEST_MS = 86_400_000L;
    static final int DIGITS = 3;

    private DurationSketch() {
    }

    public static Histogram empty() {
        return new Histogram(1, HIGHEST_MS, DIGITS);
    }

    public static Histogram decode(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return empty();
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(bytes.duplicate(), 1);
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a duration sketch: " + e.getMessage(), e);
        }
    }

    public static ByteBuffer encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        buffer.flip();
        buffer.limit(length);
        return buffer;
    }

    /** Records a duration, clamped into the sketch's range (1 ms to 1 day); returns the value recorded. */
    public static long record(Histogram histogram, long durationMs) {
        long recorded = Math.min(HIGHEST_MS, Math.max(1, durationMs));
        histogram.recordValue(recorded);
        return recorded;
    }
}
