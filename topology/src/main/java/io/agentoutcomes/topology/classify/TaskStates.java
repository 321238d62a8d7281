package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.serde.AvroModel;
import io.agentoutcomes.topology.state.WriteBehindStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A task's entry in the classifier's store: a format byte ({@code 0x82}), when it expires (8 bytes, big-endian epoch
 * millis), then the {@link TaskAttempts} in Avro's binary encoding (schema in {@code avro/}), its recent result ids as
 * 64-bit fingerprints. The expiry leads so that a sweep reads it without decoding the rest. Entries of the first format
 * (no format byte: the expiry first, whose sign bit is clear, and the result ids as strings) are read too, so a store
 * written before keeps its tasks. Internal state, so no schema-registry header. One instance per store (not
 * thread-safe): the encoder and its buffer are reused.
 */
final class TaskStates implements WriteBehindStore.Codec<TaskStates.TaskState> {
    /**
     * A task's state (its counts: {@link TaskMemory}), until when it is remembered, and the fingerprints of its recent
     * result ids, newest last. Compared as numbers: one small array instead of 32 strings scattered over the heap, and
     * written to the changelog as 8 bytes each instead of the ids (about 40 bytes each): the task stores' changelogs
     * were two fifths of what the pipeline wrote per record with ids. Two ids share a fingerprint with a probability
     * of about 2^-64, so a task's 32 recent ids make a new result read as a duplicate about once in 5 * 10^17.
     */
    record TaskState(TaskAttempts attempts, long expiresAt, long[] recent) {
        /** Whether the result id of {@code fingerprint} ({@link #fingerprint}) is among the recent ones. */
        boolean seen(long fingerprint) {
            for (long seen : recent) {
                if (seen == fingerprint) {
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
        TaskState redriven(long redriveMark) {
            return new TaskState(TaskMemory.counts(0, 0, attempts.getTotalFailures(), null), expiresAt,
                    new long[] {redriveMark});
        }

        /** The state after {@code outcome} ({@link TaskMemory#next}), whose result id has {@code fingerprint}. */
        TaskState next(ClassifiedOutcome outcome, long fingerprint, long nextExpiresAt) {
            int kept = Math.min(recent.length, TaskMemory.RECENT_RESULT_IDS - 1);
            long[] next = new long[kept + 1];
            System.arraycopy(recent, recent.length - kept, next, 0, kept);
            next[kept] = fingerprint;
            return new TaskState(TaskMemory.next(attempts, outcome), nextExpiresAt, next);
        }
    }

    /** The fingerprint a result id is remembered by: CRC-64-AVRO of its UTF-8 bytes. */
    static long fingerprint(String resultId) {
        return SchemaNormalization.fingerprint64(resultId.getBytes(StandardCharsets.UTF_8));
    }

    /** A task not seen within its retention. */
    static TaskState fresh() {
        return new TaskState(TaskMemory.counts(0, 0, 0, null), Long.MIN_VALUE, new long[0]);
    }

    /** The second format's first byte: its sign bit set, where the first format's non-negative expiry has it clear. */
    static final byte FORMAT_2 = (byte) 0x82;
    private static final int EXPIRY_BYTES = Long.BYTES;
    private static final String FINGERPRINTS = "recentResultFingerprints";
    private final SpecificDatumWriter<TaskAttempts> writer = new SpecificDatumWriter<>(TaskAttempts.getClassSchema(),
            AvroModel.SPECIFIC);
    private final SpecificDatumReader<TaskAttempts> reader = new SpecificDatumReader<>(TaskAttempts.getClassSchema(),
            TaskAttempts.getClassSchema(), AvroModel.SPECIFIC);
    private final SpecificDatumReader<TaskAttempts> firstFormatReader = new SpecificDatumReader<>(firstFormat(),
            TaskAttempts.getClassSchema(), AvroModel.SPECIFIC);
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private BinaryEncoder encoder;
    private BinaryDecoder decoder;

    /** {@link TaskAttempts}' schema as entries of the first format were written: the result ids as strings only. */
    static Schema firstFormat() {
        Schema current = TaskAttempts.getClassSchema();
        List<Schema.Field> fields = current.getFields().stream().filter(field -> !field.name().equals(FINGERPRINTS))
                .map(field -> new Schema.Field(field, field.schema())).toList();
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    /** When the entry expires, read without decoding the state. */
    static long expiresAt(byte[] entry) {
        return ByteBuffer.wrap(entry, start(entry), EXPIRY_BYTES).getLong();
    }

    /** Where an entry's expiry starts: after the format byte, or (first format) at once. */
    private static int start(byte[] entry) {
        return entry[0] == FORMAT_2 ? 1 : 0;
    }

    @Override
    public byte[] encode(TaskState state) {
        ByteBuffer fingerprints = ByteBuffer.allocate(state.recent().length * Long.BYTES);
        for (long fingerprint : state.recent()) {
            fingerprints.putLong(fingerprint);
        }
        TaskAttempts counts = state.attempts();
        return encode(new TaskAttempts(counts.getAttempts(), counts.getConsecutiveFailures(), counts.getTotalFailures(),
                counts.getStopReason(), List.of(), fingerprints.flip()), state.expiresAt());
    }

    @Override
    public TaskState decode(byte[] entry) {
        TaskAttempts stored = attempts(entry);
        long[] recent;
        if (stored.getRecentResultIds().isEmpty()) {
            ByteBuffer fingerprints = stored.getRecentResultFingerprints();
            recent = new long[fingerprints.remaining() / Long.BYTES];
            for (int i = 0; i < recent.length; i++) {
                recent[i] = fingerprints.getLong();
            }
        } else {
            recent = stored.getRecentResultIds().stream().map(Object::toString).mapToLong(TaskStates::fingerprint)
                    .toArray();
        }
        TaskAttempts counts = TaskMemory.counts(stored.getAttempts(), stored.getConsecutiveFailures(),
                stored.getTotalFailures(), stored.getStopReason());
        return new TaskState(counts, expiresAt(entry), recent);
    }

    byte[] encode(TaskAttempts state, long expiresAt) {
        buffer.reset();
        buffer.write(FORMAT_2);
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
        int offset = start(entry) + EXPIRY_BYTES;
        decoder = DecoderFactory.get().binaryDecoder(entry, offset, entry.length - offset, decoder);
        try {
            return (entry[0] == FORMAT_2 ? reader : firstFormatReader).read(null, decoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
