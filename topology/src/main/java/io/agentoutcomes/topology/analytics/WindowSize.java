package io.agentoutcomes.topology.analytics;

import java.time.Duration;

/** The aggregation windows: their name (in keys and topics), length, and how long a closed one is kept; TOTAL has none. */
public enum WindowSize {
    ONE_MINUTE("1m", Duration.ofMinutes(1), Duration.ofHours(2)),
    ONE_HOUR("1h", Duration.ofHours(1), Duration.ofDays(7)),
    TOTAL("total", null, null);

    private final String label;
    private final Duration length;
    /** How long a closed window stays in the store for queries and the dashboard. */
    private final Duration retention;

    WindowSize(String label, Duration length, Duration retention) {
        this.label = label;
        this.length = length;
        this.retention = retention;
    }

    public String label() {
        return label;
    }

    /** The window's length; null for running totals. */
    Duration length() {
        return length;
    }

    /** How long a closed window stays in the store; null for running totals. */
    Duration retention() {
        return retention;
    }

    public static WindowSize of(String label) {
        for (WindowSize size : values()) {
            if (size.label.equals(label)) {
                return size;
            }
        }
        throw new IllegalArgumentException("no window size " + label);
    }

    long start(long timestampMs) {
        return length == null ? 0 : timestampMs - Math.floorMod(timestampMs, length.toMillis());
    }
}
