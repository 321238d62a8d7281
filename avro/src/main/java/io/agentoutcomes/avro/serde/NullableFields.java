package io.agentoutcomes.avro.serde;

import java.io.IOException;
import java.util.function.Supplier;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.ResolvingDecoder;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The contract's nullable fields ({@code ["null", T]}: branch 0 is null, branch 1 the value) as Avro's own writers and
 * readers lay them out, for the hand-written record coders. Records inside use their generated custom coders.
 */
final class NullableFields {
    private NullableFields() {
    }

    static void writeString(Encoder out, String value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        out.writeString(value);
    }

    static void writeInt(Encoder out, Integer value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        out.writeInt(value);
    }

    static void writeLong(Encoder out, Long value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        out.writeLong(value);
    }

    static void writeDouble(Encoder out, Double value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        out.writeDouble(value);
    }

    static void writeEnum(Encoder out, Enum<?> value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        out.writeEnum(value.ordinal());
    }

    /** A record with generated custom coders. */
    static void writeRecord(Encoder out, SpecificRecordBase value) throws IOException {
        if (isNull(out, value)) {
            return;
        }
        value.customEncode(out);
    }

    /** Writes the branch index (and the null); true if there is nothing more to write. */
    private static boolean isNull(Encoder out, Object value) throws IOException {
        if (value == null) {
            out.writeIndex(0);
            out.writeNull();
            return true;
        }
        out.writeIndex(1);
        return false;
    }

    static String readString(ResolvingDecoder in) throws IOException {
        return isNull(in) ? null : in.readString();
    }

    static Integer readInt(ResolvingDecoder in) throws IOException {
        return isNull(in) ? null : in.readInt();
    }

    static Long readLong(ResolvingDecoder in) throws IOException {
        return isNull(in) ? null : in.readLong();
    }

    static Double readDouble(ResolvingDecoder in) throws IOException {
        return isNull(in) ? null : in.readDouble();
    }

    /** @param symbols the enum's constants, in the schema's order ({@code values()}, kept by the caller) */
    static <E extends Enum<E>> E readEnum(ResolvingDecoder in, E[] symbols) throws IOException {
        return isNull(in) ? null : symbols[in.readEnum()];
    }

    /** A record with generated custom coders. */
    static <R extends SpecificRecordBase> R readRecord(ResolvingDecoder in, Supplier<R> empty) throws IOException {
        if (isNull(in)) {
            return null;
        }
        R record = empty.get();
        record.customDecode(in);
        return record;
    }

    /** Reads the branch index (and the null); true if the value is null. */
    private static boolean isNull(ResolvingDecoder in) throws IOException {
        if (in.readIndex() == 0) {
            in.readNull();
            return true;
        }
        return false;
    }
}
