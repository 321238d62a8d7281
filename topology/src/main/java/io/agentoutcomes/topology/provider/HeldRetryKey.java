package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.RetryRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * The key of a held retry in the store {@value ProviderGateStores#HELD_STORE}: the scope's key (its length, then
 * its bytes, so no scope's keys are a prefix of another's), the due time as a big-endian 8-byte number (so a scope's
 * retries come out oldest first), then the task id's length and the task id, then the result id.
 */
final class HeldRetryKey {
    private HeldRetryKey() {
    }

    static Bytes of(String scope, RetryRequest retry) {
        byte[] prefix = prefix(scope).get();
        byte[] task = retry.getTaskId().getBytes(StandardCharsets.UTF_8);
        byte[] result = retry.getResultId().getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(prefix.length + Long.BYTES + Integer.BYTES + task.length + result.length)
                .put(prefix).putLong(retry.getDueAt()).putInt(task.length).put(task).put(result).array());
    }

    /** What every held retry of the scope's key starts with. */
    static Bytes prefix(String scope) {
        byte[] name = scope.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Integer.BYTES + name.length).putInt(name.length).put(name).array());
    }
}
