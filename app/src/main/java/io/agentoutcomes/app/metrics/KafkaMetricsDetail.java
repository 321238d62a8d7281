package io.agentoutcomes.app.metrics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.MetricName;

/**
 * How finely Kafka Streams' metrics are exported ({@code metrics.kafka.detail}): {@link #SUMMARY}, Kafka Streams' own
 * metrics one series per stream thread and topic, its clients' one per client and broker node (a name's series across
 * tasks, stores, processor nodes, partitions and, for the clients, topics folded into one), or {@link #FULL}, every
 * series Kafka keeps.
 */
public enum KafkaMetricsDetail {
    SUMMARY, FULL;

    /** The tags that tell a task, a store, a processor node or a partition apart: folded at {@link #SUMMARY}. */
    static final Set<String> FOLDED = Set.of("task-id", "processor-node-id", "partition", "record-cache-id");
    /** The store tag of every kind of store ({@code rocksdb-state-id}, {@code in-memory-window-state-id}, ...). */
    static final String STATE_ID = "state-id";

    /** A metric's tags as exported, sorted by name. */
    Map<String, String> tags(MetricName name) {
        // the consumers' and producers' topics (dozens of internal ones) are folded too; Kafka Streams' own are kept
        boolean client = !name.group().startsWith("stream-");
        Map<String, String> tags = new TreeMap<>();
        name.tags().forEach((key, value) -> {
            boolean store = key.endsWith("-" + STATE_ID);
            if (this == FULL) {
                tags.put(store ? STATE_ID : key, value);
            } else if (!store && !FOLDED.contains(key) && !(client && key.equals("topic"))) {
                tags.put(key, value);
            }
        });
        return tags;
    }

    /** The setting's value for this detail: {@code summary}, {@code full}. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The detail a setting's value names. */
    public static KafkaMetricsDetail of(String value) {
        return valueOf(value.toUpperCase(java.util.Locale.ROOT));
    }
}
