package io.agentoutcomes.topology.analytics;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Bounds the distinct values each attribution dimension (tenant, team, user, tag) takes in one task's hour window: the
 * first {@code maxValues} values seen keep their name, later ones are counted under {@value #OTHER} (so is every
 * minute of the hour, a part of it). Nothing is dropped: the figures of {@value #OTHER} are the rest's. {@value
 * Dimensions#UNKNOWN} never counts against the cap. Held in memory: after a restart a task admits afresh, so a window
 * may hold up to twice the cap per task; the counts stay exact. Not thread-safe (one per task).
 */
public final class DimensionCap {
    static final String OTHER = "_other";
    /** Hours kept: the current one and those late records (within the grace) may still fall in. */
    private static final int HOURS_KEPT = 3;

    private final Dimension[] capped;
    private final int maxValues;
    private final TreeMap<Long, Map<Dimension, Set<String>>> hours = new TreeMap<>();
    /** The latest hour looked up, and its sets: most records fall in it, so no map lookup for them. */
    private long lastHour = Long.MIN_VALUE;
    private Map<Dimension, Set<String>> lastSeen;

    public DimensionCap(Set<Dimension> keyed, int maxValues) {
        this.capped = keyed.stream().filter(Dimension::attributed).toArray(Dimension[]::new);
        this.maxValues = maxValues;
    }

    /** The key with each attribution value past the cap of its hour replaced by {@value #OTHER}. */
    public Dimensions admit(long timestamp, Dimensions key) {
        if (capped.length == 0) {
            return key;
        }
        Dimensions admitted = key;
        Map<Dimension, Set<String>> seen = null;
        for (Dimension dimension : capped) {
            String value = key.value(dimension);
            if (value == null || value.equals(Dimensions.UNKNOWN)) {
                continue;
            }
            if (seen == null) {
                seen = seen(WindowSize.ONE_HOUR.start(timestamp));
            }
            Set<String> values = seen.get(dimension);
            if (!values.contains(value) && (values.size() >= maxValues || !values.add(value))) {
                admitted = admitted.with(dimension, OTHER);
            }
        }
        return admitted;
    }

    private Map<Dimension, Set<String>> seen(long hour) {
        if (hour == lastHour) {
            return lastSeen;
        }
        Map<Dimension, Set<String>> seen = hours.computeIfAbsent(hour, h -> {
            Map<Dimension, Set<String>> sets = new EnumMap<>(Dimension.class);
            for (Dimension dimension : capped) {
                sets.put(dimension, new HashSet<>());
            }
            return sets;
        });
        for (Iterator<Long> older = hours.keySet().iterator(); hours.size() > HOURS_KEPT && older.hasNext(); ) {
            older.next();
            older.remove();
        }
        lastHour = hour;
        lastSeen = seen;
        return seen;
    }
}
