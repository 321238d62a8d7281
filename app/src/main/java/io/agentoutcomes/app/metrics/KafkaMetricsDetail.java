package io.agentoutcomes.app.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How finely Kafka Streams' metrics are exported ({@code metrics.kafka.detail}): {@link #TOPIC}, one series per client,
 * stream thread, topic and broker (a name's series across tasks, stores, processor nodes and partitions folded into
 * one), or {@link #FULL}, every series Kafka keeps.
 */
public enum KafkaMetricsDetail {
    TOPIC, FULL;

    /** The tags that tell a task, a store, a processor node or a partition apart: folded at {@link #TOPIC}. */
    static final Set<String> FOLDED = Set.of("task-id", "processor-node-id", "partition", "record-cache-id");
    /** The store tag of every kind of store ({@code rocksdb-state-id}, {@code in-memory-window-state-id}, ...). */
    static final String STATE_ID = "state-id";

    /** A metric's tags as exported, sorted by name. */
    Map<String, String> tags(Map<String, String> kafkaTags) {
        Map<String, String> tags = new TreeMap<>();
        kafkaTags.forEach((key, value) -> {
            boolean store = key.endsWith("-" + STATE_ID);
            if (this == FULL) {
                tags.put(store ? STATE_ID : key, value);
            } else if (!store && !FOLDED.contains(key)) {
                tags.put(key, value);
            }
        });
        return tags;
    }

    /** The setting's value for this detail: {@code topic}, {@code full}. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The detail a setting's value names. */
    public static KafkaMetricsDetail of(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
}
