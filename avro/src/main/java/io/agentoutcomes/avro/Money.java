package io.agentoutcomes.avro;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;

/**
 * Money in the contract: exact US dollars, carried in a {@code bytes} field as the two's-complement big-endian bytes
 * of the amount in pico-dollars (10^-12 USD). These are the bytes of an Avro {@code decimal} of scale 12, so a reader
 * whose schema declares that logical type reads a decimal; the contract itself declares plain {@code bytes}, because
 * a logical type stops Avro from generating its fast custom coders (docs/schemas.md). Amounts are bounded as the
 * decimal was: at most {@value #PRECISION} digits, {@value #SCALE} of them after the point.
 */
public final class Money {
    /** Digits after the decimal point: pico-dollars. */
    public static final int SCALE = 12;
    /** Digits in all: amounts are below 10^18 US dollars. */
    public static final int PRECISION = 30;

    public static final BigDecimal ZERO = BigDecimal.ZERO.setScale(SCALE);

    /**
     * The field property ({@code "unit"}) the contract puts on every field of money ({@value}) and of time
     * ({@value #EPOCH_MILLIS}): what a plain {@code bytes} or {@code long} means, for readers that render them.
     */
    public static final String UNIT = "pico-usd";
    /** The {@code "unit"} of a time: milliseconds since the epoch, UTC. */
    public static final String EPOCH_MILLIS = "epoch-millis";
    /** The name of the field property that says a field's unit. */
    public static final String UNIT_PROPERTY = "unit";

    private Money() {
    }

    /** Whether an amount is exact at {@link #SCALE} and within {@link #PRECISION}. */
    public static boolean fits(BigDecimal amount) {
        return amount.stripTrailingZeros().scale() <= SCALE && amount.setScale(SCALE, RoundingMode.UNNECESSARY).precision() <= PRECISION;
    }

    /** The smallest amount past {@link #PRECISION} digits, in pico-dollars: 10^30. */
    private static final BigInteger PAST_PRECISION = BigInteger.TEN.pow(PRECISION);
    /** Up to this many bytes, an unscaled amount is below 2^95 < 10^30: it fits whatever its bytes. */
    private static final int ALWAYS_FITTING_BYTES = 12;

    /**
     * Whether some bytes are an amount of the contract: not negative and within {@link #PRECISION} digits (what a
     * producer writing Avro itself may get wrong, where JSON input is checked as it is parsed). Null and no bytes
     * (zero) fit. No decimal is made for amounts of up to {@value #ALWAYS_FITTING_BYTES} bytes: a sign check.
     */
    public static boolean fitsNonNegative(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return true;
        }
        if (bytes.get(bytes.position()) < 0) {
            return false;
        }
        if (bytes.remaining() <= ALWAYS_FITTING_BYTES) {
            return true;
        }
        return toDecimal(bytes).unscaledValue().compareTo(PAST_PRECISION) < 0;
    }

    /** An amount's bytes; null for null. Throws {@link ArithmeticException} for an amount that does not {@link #fits fit}. */
    public static ByteBuffer toBytes(BigDecimal amount) {
        if (amount == null) {
            return null;
        }
        if (!fits(amount)) {
            throw new ArithmeticException("an amount of money must have at most " + SCALE + " decimals and " + PRECISION
                    + " digits: " + amount.toPlainString());
        }
        return ByteBuffer.wrap(amount.setScale(SCALE, RoundingMode.UNNECESSARY).unscaledValue().toByteArray());
    }

    /** An amount in pico-dollars as bytes. */
    public static ByteBuffer ofPicos(long picos) {
        return ByteBuffer.wrap(BigInteger.valueOf(picos).toByteArray());
    }

    /** The amount of some bytes, at scale {@link #SCALE}; null for null. */
    public static BigDecimal toDecimal(ByteBuffer bytes) {
        if (bytes == null) {
            return null;
        }
        if (!bytes.hasRemaining()) {
            return ZERO;
        }
        byte[] unscaled = new byte[bytes.remaining()];
        bytes.duplicate().get(unscaled);
        return new BigDecimal(new BigInteger(unscaled), SCALE);
    }

    /**
     * The amount in pico-dollars, without making a {@link BigDecimal}; 0 for null.
     *
     * @throws ArithmeticException when it does not fit a long (over 9.2 million dollars)
     */
    public static long picos(ByteBuffer bytes) {
        if (bytes == null || !bytes.hasRemaining()) {
            return 0;
        }
        int length = bytes.remaining();
        if (length > Long.BYTES) {
            return toDecimal(bytes).unscaledValue().longValueExact();
        }
        int at = bytes.position();
        long value = bytes.get(at); // sign-extended
        for (int i = 1; i < length; i++) {
            value = (value << 8) | (bytes.get(at + i) & 0xff);
        }
        return value;
    }
}
