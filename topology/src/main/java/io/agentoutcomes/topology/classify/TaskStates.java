package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.serde.AvroModel;
import io.agentoutcomes.topology.state.WriteBehindStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A task's entry in the classifier's store: when it expires (8 bytes, big-endian epoch millis), then the
 * {@link TaskAttempts} in Avro's binary encoding (schema in {@code avro/}). The expiry leads so that a sweep reads it
 * without decoding the rest. Internal state, so no schema-registry header. One instance per store (not thread-safe):
 * the encoder and its buffer are reused.
 */
final class TaskStates implements WriteBehindStore.Codec<TaskStates.TaskState> {
    /**
     * A task's state, until when it is remembered, and the hash codes of its recent result ids in the same order (kept
     * beside the strings so that looking a result id up reads one small array instead of every string: following 32
     * references to strings scattered over the heap was a seventh of the stream thread in issue 18's profile).
     */
    record TaskState(TaskAttempts attempts, long expiresAt, int[] recentHashes) {
        static TaskState of(TaskAttempts attempts, long expiresAt) {
            List<String> recent = attempts.getRecentResultIds();
            int[] hashes = new int[recent.size()];
            for (int i = 0; i < hashes.length; i++) {
                hashes[i] = recent.get(i).hashCode();
            }
            return new TaskState(attempts, expiresAt, hashes);
        }

        /** Whether {@code resultId} is among the recent ones. */
        boolean seen(String resultId) {
            int hash = resultId.hashCode();
            for (int i = 0; i < recentHashes.length; i++) {
                if (recentHashes[i] == hash && attempts.getRecentResultIds().get(i).equals(resultId)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * The state of a stopped task whose re-run a redrive asked for: a new run (no attempts, no trailing failures, no
         * stop; total failures kept), remembering the redrive's mark among the recent ids so that it applies once. The
         * recent result ids go: the re-run numbers its attempts from 0 again, and a node's result id is made of its
         * attempt, so the re-run's would read as a duplicate of the first run's.
         */
        TaskState redriven(String redriveMark) {
            return of(new TaskAttempts(0, 0, attempts.getTotalFailures(), null, List.of(redriveMark)), expiresAt);
        }

        /** The state after {@code outcome} ({@link TaskMemory#next}), its hashes carried over rather than recomputed. */
        TaskState next(ClassifiedOutcome outcome, long nextExpiresAt) {
            TaskAttempts nextAttempts = TaskMemory.next(attempts, outcome);
            int size = nextAttempts.getRecentResultIds().size();
            int[] hashes = new int[size];
            int kept = size - 1;
            System.arraycopy(recentHashes, recentHashes.length - kept, hashes, 0, kept);
            hashes[kept] = outcome.getResultId().hashCode();
            return new TaskState(nextAttempts, nextExpiresAt, hashes);
        }
    }

    /** A task not seen within its retention. */
    static TaskState fresh() {
        return new TaskState(new TaskAttempts(0, 0, 0, null, List.of()), Long.MIN_VALUE, new int[0]);
    }

    private static final int EXPIRY_BYTES = Long.BYTES;
    private final SpecificDatumWriter<TaskAttempts> writer = new SpecificDatumWriter<>(TaskAttempts.getClassSchema(),
            AvroModel.SPECIFIC);
    private final SpecificDatumReader<TaskAttempts> reader = new SpecificDatumReader<>(TaskAttempts.getClassSchema(),
            TaskAttempts.getClassSchema(), AvroModel.SPECIFIC);
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    /** When the entry expires, read without decoding the state. */
    static long expiresAt(byte[] entry) {
        return ByteBuffer.wrap(entry, 0, EXPIRY_BYTES).getLong();
    }

    @Override
    public byte[] encode(TaskState state) {
        return encode(state.attempts(), state.expiresAt());
    }

    @Override
    public TaskState decode(byte[] entry) {
        return TaskState.of(attempts(entry), expiresAt(entry));
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

    TaskAttempts attempts(byte[] entry) {
        decoder = DecoderFactory.get().binaryDecoder(entry, EXPIRY_BYTES, entry.length - EXPIRY_BYTES, decoder);
        try {
            return reader.read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
