package io.agentoutcomes.topology.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.classify.TaskStates.TaskState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/** The classifier's store entries: the second format (fingerprints) round trip, and entries of the first still read. */
class TaskStatesTest {
    private static final long EXPIRES_AT = 1_764_300_000_000L;
    private final TaskStates codec = new TaskStates();

    @Test
    void aTaskWithThirtyTwoRecentIdsIsWrittenWithTheirFingerprintsAndReadBack() {
        List<String> ids = ids(40);
        TaskState state = TaskStates.fresh();
        for (String id : ids) {
            state = state.next(success(id), TaskStates.fingerprint(id), EXPIRES_AT);
        }

        byte[] entry = codec.encode(state);
        TaskState read = codec.decode(entry);

        // format byte, expiry, three counts of a byte each, the null branch, the empty list, 256 bytes and their
        // length (2 bytes): 272 bytes, where the first format took 1 198 for the same 32 UUIDs as strings
        assertThat(entry).hasSize(1 + 8 + 3 + 1 + 1 + 2 + 256);
        assertThat(firstFormatEntry(0, 0, 0, null, ids.subList(8, 40))).hasSize(8 + 3 + 1 + (1 + 32 * 37 + 1));
        assertThat(entry[0]).isEqualTo(TaskStates.FORMAT_2);
        assertThat(TaskStates.expiresAt(entry)).isEqualTo(EXPIRES_AT);
        assertThat(read.expiresAt()).isEqualTo(EXPIRES_AT);
        assertThat(read.recent()).containsExactly(ids.subList(8, 40).stream().mapToLong(TaskStates::fingerprint).toArray());
        assertThat(read.attempts()).isEqualTo(state.attempts());
        assertThat(read.seen(TaskStates.fingerprint(ids.get(39)))).isTrue();
        assertThat(read.seen(TaskStates.fingerprint(ids.get(8)))).isTrue();
        assertThat(read.seen(TaskStates.fingerprint(ids.get(7)))).as("the 33rd id back is forgotten").isFalse();
    }

    @Test
    void anEntryOfTheFirstFormatIsReadWithItsCountsStopAndRecentIds() {
        List<String> ids = ids(3);
        byte[] entry = firstFormatEntry(5, 5, 7, "RETRY_LIMIT", ids);

        TaskState read = codec.decode(entry);

        assertThat(TaskStates.firstFormat().getField("recentResultFingerprints")).isNull();
        assertThat(TaskStates.expiresAt(entry)).isEqualTo(EXPIRES_AT);
        assertThat(read.expiresAt()).isEqualTo(EXPIRES_AT);
        assertThat(read.attempts()).isEqualTo(TaskMemory.counts(5, 5, 7, StopReason.RETRY_LIMIT));
        assertThat(read.recent()).containsExactly(ids.stream().mapToLong(TaskStates::fingerprint).toArray());
        assertThat(read.seen(TaskStates.fingerprint(ids.get(1)))).isTrue();
        assertThat(read.seen(TaskStates.fingerprint("another"))).isFalse();
        // written back in the second format, read the same
        TaskState again = codec.decode(codec.encode(read));
        assertThat(again.attempts()).isEqualTo(read.attempts());
        assertThat(again.recent()).containsExactly(read.recent());
    }

    @Test
    void aRedriveKeepsOnlyItsMarkAndTheTotalFailures() {
        TaskState stopped = new TaskState(TaskMemory.counts(5, 5, 9, StopReason.RETRY_LIMIT), EXPIRES_AT,
                new long[] {1L, 2L, 3L});

        TaskState redriven = stopped.redriven(42L);

        assertThat(redriven.attempts()).isEqualTo(TaskMemory.counts(0, 0, 9, null));
        assertThat(redriven.recent()).containsExactly(42L);
        assertThat(redriven.seen(1L)).isFalse();
    }

    @Test
    void fingerprintsAreAvrosCrc64OfTheUtf8Bytes() {
        // CRC-64-AVRO of the empty input is the algorithm's seed (the Avro specification's EMPTY)
        assertThat(TaskStates.fingerprint("")).isEqualTo(0xc15d213aa4d7a795L);
        assertThat(TaskStates.fingerprint("r-1")).isNotEqualTo(TaskStates.fingerprint("r-2"));
        // the UTF-8 bytes (0xC3 0xA9 for "é"), not its UTF-16 char or Latin-1 byte
        assertThat(TaskStates.fingerprint("\u00e9"))
                .isEqualTo(SchemaNormalization.fingerprint64(new byte[] {(byte) 0xc3, (byte) 0xa9}))
                .isNotEqualTo(SchemaNormalization.fingerprint64(new byte[] {(byte) 0xe9}));
    }

    /** An entry as the first format wrote it: the expiry, then the counts and the result ids as strings. */
    private static byte[] firstFormatEntry(int attempts, int consecutiveFailures, int totalFailures, String stopReason,
                                           List<String> ids) {
        Schema first = TaskStates.firstFormat();
        GenericRecord old = new GenericData.Record(first);
        old.put("attempts", attempts);
        old.put("consecutiveFailures", consecutiveFailures);
        old.put("totalFailures", totalFailures);
        old.put("stopReason", stopReason == null ? null : new GenericData.EnumSymbol(StopReason.getClassSchema(), stopReason));
        old.put("recentResultIds", new ArrayList<>(ids));
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(ByteBuffer.allocate(Long.BYTES).putLong(EXPIRES_AT).array());
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(first).write(old, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> ids(int count) {
        return IntStream.range(0, count).mapToObj(i -> new UUID(i, 31L * i).toString()).toList();
    }

    private static ClassifiedOutcome success(String resultId) {
        return ClassifiedOutcome.newBuilder().setTaskId("t-1").setResultId(resultId).setAttempt(0)
                .setResultType(ResultType.SUCCESS).setReason("Success").setRetryCount(0).setClassifiedAt(0L).build();
    }
}
