package io.agentoutcomes.topology.analytics;

import java.time.Instant;
import java.util.Arrays;

/**
 * The key of one aggregate: window size and start, then the value of each {@link Dimension} in order;
 * {@value #SEPARATOR}-separated, the start zero-padded to 13 digits so that keys sort by start within a size. A
 * dimension not grouped by is written empty, and those at the end are left out, so keys of agent, model and provider
 * alone read as they did before the attribution dimensions existed (and such stored keys still decode).
 */
public record WindowKey(WindowSize size, long start, Dimensions dimensions) {
    public static final char SEPARATOR = '|';
    private static final int START_DIGITS = 13;
    private static final int PARTS = 2 + Dimension.values().length;

    /** The prefix of the store keys of one size's windows, for a scan of them. */
    public static String prefix(WindowSize size) {
        return size.label() + SEPARATOR;
    }

    public String encode() {
        String digits = Long.toString(start);
        StringBuilder text = new StringBuilder(64).append(size.label()).append(SEPARATOR);
        for (int pad = digits.length(); pad < START_DIGITS; pad++) {
            text.append('0');
        }
        text.append(digits);
        int last = dimensions.values().size() - 1;
        while (last > 0 && dimensions.values().get(last) == null) {
            last--;
        }
        for (int i = 0; i <= last; i++) {
            String value = dimensions.values().get(i);
            text.append(SEPARATOR).append(value == null ? "" : value);
        }
        return text.toString();
    }

    /** The key {@link #encode} wrote; the last dimension's value may hold the separator. */
    public static WindowKey decode(String text) {
        String[] split = text.split("\\" + SEPARATOR, PARTS);
        String[] values = new String[PARTS - 2];
        for (int i = 2; i < split.length; i++) {
            values[i - 2] = split[i].isEmpty() ? null : split[i];
        }
        return new WindowKey(WindowSize.of(split[0]), Long.parseLong(split[1]), new Dimensions(Arrays.asList(values)));
    }

    /** When the window ends; null for running totals. */
    Instant end() {
        return size.length() == null ? null : Instant.ofEpochMilli(start).plus(size.length());
    }
}
