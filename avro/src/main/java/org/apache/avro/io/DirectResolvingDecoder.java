package org.apache.avro.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.io.parsing.Symbol;
import org.apache.avro.util.Utf8;

/**
 * A {@link ResolvingDecoder} for bytes written with the reader's own schema: every read goes straight to the decoder it
 * is configured with (the serde's {@link BoundedBinaryDecoder}, so its limits hold), with no step of Avro's resolving
 * parser per field. It is a resolving decoder only because the generated {@code customDecode} of nested records takes
 * one. Use it ONLY when the writer schema is the reader's: it resolves nothing and checks no grammar.
 * <p>
 * {@code readFieldOrderIfDiff()}, {@code readFieldOrder()} and {@code drain()} are final in Avro; they go through the
 * parser, whose stack holds one field-order action meaning "fields in the reader's order": every record read asks for
 * it and gets it back ({@code readFieldOrderIfDiff()} returns null), {@code drain()} pops it. {@code readFieldOrder()}
 * returns no fields: a reader that needs it is not one this decoder is for. In Avro's package because
 * {@link ResolvingDecoder}'s constructor is package-private. One instance per thread, re-pointed with
 * {@link #configure}.
 */
public final class DirectResolvingDecoder extends ResolvingDecoder {
    private static final Schema NOTHING = Schema.create(Schema.Type.NULL);
    private static final Symbol IN_READER_ORDER = new Symbol.FieldOrderAction(new Schema.Field[0]);

    private final int unionBranches;
    private final int enumSymbols;

    /** A decoder of bytes written with {@code schema} (the reader's own), bounding union indexes and enum ordinals. */
    public DirectResolvingDecoder(Schema schema) throws IOException {
        this(schema, Set.of());
    }

    /**
     * As above, where the caller reads each union of {@code readByHand} itself with {@link #readIndex(int)}: every
     * other union index (those the generated {@code customDecode} reads with {@link #readIndex()}) is bounded by the
     * widest of the other unions, so a nullable field that claims a third branch is refused instead of read as null.
     */
    public DirectResolvingDecoder(Schema schema, Set<Schema> readByHand) throws IOException {
        super(NOTHING, NOTHING, null);
        int[] widest = new int[2];
        widest(schema, readByHand, widest, new HashSet<>());
        this.unionBranches = widest[0];
        this.enumSymbols = widest[1];
    }

    /** The most branches of any union (but those read by hand) and symbols of any enum in {@code schema}. */
    private static void widest(Schema schema, Set<Schema> readByHand, int[] widest, Set<String> seen) {
        switch (schema.getType()) {
            case RECORD -> {
                if (seen.add(schema.getFullName())) {
                    schema.getFields().forEach(field -> widest(field.schema(), readByHand, widest, seen));
                }
            }
            case UNION -> {
                if (!readByHand.contains(schema)) {
                    widest[0] = Math.max(widest[0], schema.getTypes().size());
                }
                schema.getTypes().forEach(branch -> widest(branch, readByHand, widest, seen));
            }
            case ENUM -> widest[1] = Math.max(widest[1], schema.getEnumSymbols().size());
            case ARRAY -> widest(schema.getElementType(), readByHand, widest, seen);
            case MAP -> widest(schema.getValueType(), readByHand, widest, seen);
            default -> {
            }
        }
    }

    private static int bounded(int claimed, int count, String what) {
        if (claimed < 0 || claimed >= count) {
            throw new AvroTypeException("the data claims " + what + " " + claimed + " where the schema has at most "
                    + count);
        }
        return claimed;
    }

    @Override
    public DirectResolvingDecoder configure(Decoder in) throws IOException {
        super.configure(in);
        parser.pushSymbol(IN_READER_ORDER);
        return this;
    }

    @Override
    public Symbol doAction(Symbol input, Symbol top) throws IOException {
        if (top == IN_READER_ORDER) {
            if (input == Symbol.FIELD_ACTION) {
                parser.pushSymbol(IN_READER_ORDER); // asked again by the next (nested) record
                return top;
            }
            return null; // drain()
        }
        return super.doAction(input, top);
    }

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        return in.readString(old);
    }

    @Override
    public String readString() throws IOException {
        return in.readString();
    }

    @Override
    public void skipString() throws IOException {
        in.skipString();
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        return in.readBytes(old);
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipBytes();
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(length);
    }

    @Override
    protected void skipFixed() throws IOException {
        throw new UnsupportedOperationException("a direct decoder skips nothing by grammar");
    }

    @Override
    public int readEnum() throws IOException {
        return bounded(in.readEnum(), enumSymbols, "enum symbol");
    }

    @Override
    public long readArrayStart() throws IOException {
        return in.readArrayStart();
    }

    @Override
    public long arrayNext() throws IOException {
        return in.arrayNext();
    }

    @Override
    public long skipArray() throws IOException {
        return in.skipArray();
    }

    @Override
    public long readMapStart() throws IOException {
        return in.readMapStart();
    }

    @Override
    public long mapNext() throws IOException {
        return in.mapNext();
    }

    @Override
    public long skipMap() throws IOException {
        return in.skipMap();
    }

    @Override
    public int readIndex() throws IOException {
        return bounded(in.readIndex(), unionBranches, "union branch");
    }

    /** The index of a union the caller reads by hand ({@code readByHand}), which has {@code branches} branches. */
    public int readIndex(int branches) throws IOException {
        return bounded(in.readIndex(), branches, "union branch");
    }
}
