package io.agentoutcomes.app.kafka;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * What readiness needs to know of Kafka Streams beyond its state: whether it has been {@code RUNNING} since it started
 * (its first assignment taken and its tasks running; a later rebalance does not stop the tasks an instance keeps), and
 * which active state stores are being restored from their changelogs right now (an instance whose stores are still
 * filling answers queries with part of its data, so it is not ready until they are done). Also how many records each
 * store has restored since the start: after a clean stop, a persistent store restores none.
 */
public final class StreamsProgress implements StateRestoreListener {
    private final Set<String> restoring = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> restored = new ConcurrentHashMap<>();
    private volatile boolean hasRun;

    /** Kafka Streams' state changed (called from the service's one state listener). */
    public void stateChanged(KafkaStreams.State state) {
        if (state == KafkaStreams.State.RUNNING) {
            hasRun = true;
        }
    }

    /** Whether Kafka Streams has been RUNNING since it started. */
    public boolean hasRun() {
        return hasRun;
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        restoring.add(store + "/" + partition.partition());
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        restored.merge(store, numRestored, Long::sum);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        restoring.remove(store + "/" + partition.partition());
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        restoring.remove(store + "/" + partition.partition());
    }

    /** How many store partitions are being restored. */
    public int restoring() {
        return restoring.size();
    }

    /** Records restored from its changelog since the start, per store (a store that restored nothing is absent). */
    public Map<String, Long> restoredRecords() {
        return Map.copyOf(restored);
    }
}
