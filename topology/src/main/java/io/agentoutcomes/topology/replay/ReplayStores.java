package io.agentoutcomes.topology.replay;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.serde.AvroSerde;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;

/**
 * The replay stage's stores, as the fold writes them and the HTTP queries read them: each job's state in
 * {@value #STORE}, and the index {@value #RECENT_STORE}, one entry per job keyed by {@link #recentKey}, so listing the
 * most recently updated jobs reads as many entries as it lists, not every job.
 */
public final class ReplayStores {
    /** The store the HTTP queries read. */
    public static final String STORE = "job-replay-state";
    /** The recent-jobs index: {@link #recentKey} to job id, newest update first in key order. */
    public static final String RECENT_STORE = "job-replay-recent";

    private ReplayStores() {
    }

    static StoreBuilder<TimestampedKeyValueStore<String, JobReplayState>> states(Map<String, ?> serdeConfig) {
        return Stores.timestampedKeyValueStoreBuilder(Stores.persistentTimestampedKeyValueStore(STORE), Serdes.String(),
                AvroSerde.specific(JobReplayState.class).configured(serdeConfig, false));
    }

    static StoreBuilder<KeyValueStore<String, String>> recent() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RECENT_STORE), Serdes.String(), Serdes.String());
    }

    /**
     * The index key of a job: its update time subtracted from {@code Long.MAX_VALUE}, zero-padded, then the job id,
     * so that string order is newest first, then by job id.
     */
    public static String recentKey(Long updatedAt, String jobId) {
        long millis = updatedAt == null ? 0 : Math.max(0, updatedAt);
        return String.format("%019d|%s", Long.MAX_VALUE - millis, jobId);
    }

    public static String jobIdOfRecentKey(String recentKey) {
        return recentKey.substring(20);
    }
}
