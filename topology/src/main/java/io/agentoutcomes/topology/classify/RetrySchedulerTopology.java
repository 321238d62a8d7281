package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Holds retries from the {@code retry-delay-<tier>} topics in a persistent store ordered by due time, and forwards
 * each to {@code retry-ready} when due: never before its due time (by the wall clock), and as soon after as the
 * check interval allows. The store is changelogged, so pending retries survive restarts and rebalances; with
 * exactly-once, a retry's removal from the store and its forwarding commit together, so it is forwarded once.
 * <p>
 * A check forwards at most {@code maxPerCheck} retries (a burst of a million due at once is spread over several
 * checks, each well inside the transaction timeout) and the next check resumes where the last one stopped, so the
 * deleted entries before that point (RocksDB tombstones) are not scanned again every interval.
 */
public final class RetrySchedulerTopology {
    public static final String PENDING_STORE = "retry-schedule";
    /** How often the wall clock is checked for due retries, by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(20);
    /** How many due retries one check forwards at most, by default. */
    public static final int DEFAULT_MAX_PER_CHECK = 10_000;

    private RetrySchedulerTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, Duration checkInterval, int maxPerCheck) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PENDING_STORE), Serdes.Bytes(),
                AvroSerde.specific(RetryRequest.class).configured(topics.serdeConfig, false)));
        List<String> delayTopics = topics.retryDelay.values().stream().map(Topics.Topic::name).toList();
        builder.stream(delayTopics, Consumed.with(Serdes.String(), topics.retryReady.valueSerde()).withName("read-retry-delays"))
                .process(() -> new Scheduler(checkInterval, maxPerCheck), Named.as("schedule-retries"), PENDING_STORE)
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
                .putLong(retry.getDueAt().toEpochMilli()).putInt(task.length).put(task).put(result).array());
    }

    /** The smallest key of a retry due at {@code dueAt}: no real key is this short, so none equals it. */
    static Bytes keyBound(long dueAt) {
        return Bytes.wrap(ByteBuffer.allocate(Long.BYTES).putLong(dueAt).array());
    }

    private static final class Scheduler implements Processor<String, RetryRequest, String, RetryRequest> {
        private final Duration checkInterval;
        private final int maxPerCheck;
        private ProcessorContext<String, RetryRequest> context;
        private KeyValueStore<Bytes, RetryRequest> pending;
        /** Where the next check starts: every entry before it has been forwarded. */
        private Bytes resumeFrom = keyBound(0);

        Scheduler(Duration checkInterval, int maxPerCheck) {
            this.checkInterval = checkInterval;
            this.maxPerCheck = maxPerCheck;
        }

        @Override
        public void init(ProcessorContext<String, RetryRequest> context) {
            this.context = context;
            this.pending = context.getStateStore(PENDING_STORE);
            context.schedule(checkInterval, PunctuationType.WALL_CLOCK_TIME, this::forwardDue);
        }

        @Override
        public void process(Record<String, RetryRequest> record) {
            RetryRequest retry = record.value();
            if (retry == null) {
                return;
            }
            long now = context.currentSystemTimeMs();
            if (retry.getDueAt().toEpochMilli() <= now) {
                context.forward(new Record<>(retry.getTaskId(), retry, now));
                return;
            }
            Bytes key = key(retry);
            pending.put(key, retry);
            // Only if the wall clock stepped back can a new entry land before where the next check resumes.
            if (key.compareTo(resumeFrom) < 0) {
                resumeFrom = key;
            }
        }

        /** Forwards, oldest first, the retries whose due time has come, at most {@code maxPerCheck} of them. */
        private void forwardDue(long now) {
            int forwarded = 0;
            try (KeyValueIterator<Bytes, RetryRequest> due = pending.range(resumeFrom, keyBound(now + 1))) {
                while (due.hasNext()) {
                    KeyValue<Bytes, RetryRequest> entry = due.next();
                    if (forwarded == maxPerCheck) {
                        resumeFrom = entry.key;
                        return;
                    }
                    context.forward(new Record<>(entry.value.getTaskId(), entry.value, now));
                    pending.delete(entry.key);
                    forwarded++;
                }
            }
            resumeFrom = keyBound(now + 1);
        }
    }
}
