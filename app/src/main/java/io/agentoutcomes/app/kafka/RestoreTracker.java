package io.agentoutcomes.app.kafka;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Which active state stores are being restored from their changelogs right now, for readiness: an instance whose
 * stores are still filling answers queries with part of its data, so it is not ready until they are done.
 */
public final class RestoreTracker implements StateRestoreListener {
    private final Set<String> restoring = ConcurrentHashMap.newKeySet();

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        restoring.add(store + "/" + partition.partition());
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
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
}
