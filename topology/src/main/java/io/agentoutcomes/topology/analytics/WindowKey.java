package io.agentoutcomes.topology.analytics;

import java.time.Instant;
import java.util.Arrays;

/**
 * The key of one aggregate: window size and start, then the value of each {@link Dimension} in order;
 * {@value #SEPARATOR}-separated, the start zero-padded to 13 digits so that keys sort by start within a size.
 */
public record WindowKey(WindowSize size, long start, Dimensions dimensions) {
    public static final char SEPARATOR = '|';
    private static final int START_DIGITS = 13;

    public String encode() {
        String digits = Long.toString(start);
        StringBuilder text = new StringBuilder(64).append(size.label()).append(SEPARATOR);
        for (int pad = digits.length(); pad < START_DIGITS; pad++) {
            text.append('0');
        }
        text.append(digits);
        for (String value : dimensions.values()) {
            text.append(SEPARATOR).append(value);
        }
        return text.toString();
    }

    /** The key {@link #encode} wrote; the last dimension's value may hold the separator. */
    public static WindowKey decode(String text) {
        int parts = 2 + Dimension.values().length;
        String[] split = text.split("\\" + SEPARATOR, parts);
        return new WindowKey(WindowSize.of(split[0]), Long.parseLong(split[1]),
                new Dimensions(Arrays.asList(split).subList(2, parts)));
    }

    /** When the window ends; null for running totals. */
    Instant end() {
        return size.length() == null ? null : Instant.ofEpochMilli(start).plus(size.length());
    }
}
