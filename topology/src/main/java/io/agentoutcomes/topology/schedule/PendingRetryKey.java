package io.agentoutcomes.topology.schedule;

import io.agentoutcomes.avro.RetryRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The key of a retry in the scheduler's store {@value RetryScheduler#PENDING_STORE}: the due time as a
 * big-endian 8-byte number (so byte order is time order for every non-negative time, whatever its number of digits),
 * then the task id's length and the task id, then the result id. The one place that knows this layout.
 */
public final class PendingRetryKey {
    private PendingRetryKey() {
    }

    /** The key a retry waits under. */
    public static Bytes of(RetryRequest retry) {
        byte[] task = retry.getTaskId().getBytes(StandardCharsets.UTF_8);
        byte[] result = retry.getResultId().getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES + Integer.BYTES + task.length + result.length)
                .putLong(retry.getDueAt()).putInt(task.length).put(task).put(result).array());
    }

    /** The smallest key of a retry due at {@code dueAt}: no real key is this short, so none equals it. */
    public static Bytes firstDueAt(long dueAt) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(dueAt).array());
    }

    /** The due time a key holds, in epoch milliseconds. */
    public static long dueAt(Bytes key) {
        return ByteBuffer.wrap(key.get()).getLong();
    }
}
