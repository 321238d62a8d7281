package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * Holds retries from the {@code retry-delay-<tier>} topics in a persistent store ordered by due time, and forwards
 * each to {@code retry-ready} when due. It reads every delay topic of the prefix by pattern
 * ({@link Topics#retryDelayFamily}), those of tiers the settings no longer make included, so no retry waits on a topic
 * nobody reads after the tiers change. Forwarded never before its due time (by the wall clock), and as soon after as the
 * check interval allows. The store is changelogged, so pending retries survive restarts and rebalances; with
 * exactly-once, a retry's removal from the store and its forwarding commit together, so it is forwarded once.
 * <p>
 * A check forwards at most {@code maxPerCheck} retries (a burst of a million due at once is spread over several
 * checks, each well inside the transaction timeout) and the next check resumes where the last one stopped, so the
 * deleted entries before that point (RocksDB tombstones) are not scanned again every interval.
 */
public final class RetrySchedulerTopology {
    public static final String PENDING_STORE = "retry-pending";
    /** How often the wall clock is checked for due retries, by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(20);
    /** How many due retries one check forwards at most, by default. */
    public static final int DEFAULT_MAX_PER_CHECK = 10_000;

    private RetrySchedulerTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, Duration checkInterval, int maxPerCheck) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PENDING_STORE), Serdes.Bytes(),
                Serdes.ByteArray()));
        // Every delay topic of the prefix, not only today's tiers: the tiers follow the backoff settings, and a retry
        // written to a tier that a restart with other settings retired must still come out.
        builder.stream(topics.retryDelayFamily, Consumed.with(Serdes.String(), topics.retryReady.valueSerde())
                        .withName("read-retry-delays"))
                .process(() -> new RetryScheduler(checkInterval, maxPerCheck), Named.as("schedule-retries"), PENDING_STORE)
                .to(topics.retryReady.name(), topics.retryReady.produced().withName("write-retry-ready"));
    }

    /**
     * The store key: the due time as a big-endian 8-byte number (so byte order is time order for every non-negative
     * time, whatever its number of digits), then the task id's length and the task id, then the result id.
     */
    static Bytes key(RetryRequest retry) {
        byte[] task = retry.getTaskId().getBytes(StandardCharsets.UTF_8);
        byte[] result = retry.getResultId().getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES + Integer.BYTES + task.length + result.length)
                .putLong(retry.getDueAt()).putInt(task.length).put(task).put(result).array());
    }

    /** The smallest key of a retry due at {@code dueAt}: no real key is this short, so none equals it. */
    static Bytes keyBound(long dueAt) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(dueAt).array());
    }
}
