package io.agentoutcomes.avro.serde;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * Random instances of generated classes, made by walking their schema (so a field added to the contract is filled too):
 * every union branch, nulls and values, empty, long and non-ASCII strings, arrays and maps of 0 to many entries, the
 * extremes of numbers.
 */
final class RandomRecords {
    private static final String[] SAMPLES = {"", "a", "task-42", "naïve café", "日本語のテキスト", "emoji 🚀🔥 and 𝄞",
        "e\u0301 combining", "tab\tnew\nline \"quoted\" \\", "\u0000nul"};
    private static final int[] INTS = {0, 1, -1, 63, 64, -64, -65, 8191, 8192, Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final long[] LONGS = {0, 1, -1, 63, 64, -65, Integer.MAX_VALUE + 1L, Long.MAX_VALUE, Long.MIN_VALUE,
        1_700_000_000_000L};
    /** No NaN: the generated equals() of records compares doubles with ==, so a NaN never equals itself. */
    private static final double[] DOUBLES = {0.0, -0.0, 1.0, 0.65, -1e300, Double.MIN_VALUE, Double.POSITIVE_INFINITY};

    private final Random random;

    RandomRecords(long seed) {
        this.random = new Random(seed);
    }

    @SuppressWarnings("unchecked")
    <T extends SpecificRecord> T next(Schema schema) {
        return (T) value(schema);
    }

    private Object value(Schema schema) {
        return switch (schema.getType()) {
            case RECORD -> record(schema);
            case UNION -> value(schema.getTypes().get(random.nextInt(schema.getTypes().size())));
            case NULL -> null;
            case STRING -> string();
            case BYTES -> schema.getLogicalType() instanceof LogicalTypes.Decimal decimal ? decimal(decimal) : bytes();
            case INT -> random.nextBoolean() ? INTS[random.nextInt(INTS.length)] : random.nextInt();
            case LONG -> random.nextBoolean() ? LONGS[random.nextInt(LONGS.length)] : random.nextLong();
            case DOUBLE -> random.nextBoolean() ? DOUBLES[random.nextInt(DOUBLES.length)] : random.nextDouble();
            case FLOAT -> random.nextFloat();
            case BOOLEAN -> random.nextBoolean();
            case ENUM -> AvroModel.SPECIFIC.createEnum(
                    schema.getEnumSymbols().get(random.nextInt(schema.getEnumSymbols().size())), schema);
            case ARRAY -> {
                List<Object> items = new ArrayList<>();
                for (int i = count(); i > 0; i--) {
                    items.add(value(schema.getElementType()));
                }
                yield items;
            }
            case MAP -> {
                Map<String, Object> entries = new LinkedHashMap<>();
                for (int i = count(); i > 0; i--) {
                    entries.put(string() + i, value(schema.getValueType()));
                }
                yield entries;
            }
            default -> throw new IllegalArgumentException("no generator for " + schema);
        };
    }

    private SpecificRecord record(Schema schema) {
        SpecificRecord record = (SpecificRecord) AvroModel.SPECIFIC.newRecord(null, schema);
        for (Schema.Field field : schema.getFields()) {
            record.put(field.pos(), value(field.schema()));
        }
        return record;
    }

    /** Mostly none or a few, sometimes many (more than one block's worth for a buffered encoder). */
    private int count() {
        int roll = random.nextInt(10);
        return roll < 3 ? 0 : roll < 9 ? 1 + random.nextInt(3) : 20 + random.nextInt(200);
    }

    private String string() {
        int roll = random.nextInt(10);
        if (roll < 6) {
            return SAMPLES[random.nextInt(SAMPLES.length)];
        }
        int length = roll < 9 ? random.nextInt(40) : 1_000 + random.nextInt(20_000);
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            int codePoint = random.nextInt(4) == 0 ? random.nextInt(0x10FFFF) : 0x20 + random.nextInt(0x5F);
            if (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE) {
                text.appendCodePoint(codePoint); // a lone surrogate has no UTF-8: it could not round-trip either way
            }
        }
        return text.toString();
    }

    private ByteBuffer bytes() {
        byte[] bytes = new byte[random.nextInt(4) == 0 ? 0 : random.nextInt(40)];
        random.nextBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private BigDecimal decimal(LogicalTypes.Decimal decimal) {
        BigInteger unscaled = new BigInteger(random.nextInt(100), random);
        return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), decimal.getScale());
    }
}
