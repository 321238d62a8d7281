package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.Topics;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
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
 */
public final class RetrySchedulerTopology {
    public static final String PENDING_STORE = "pending-retries";
    /** How often the wall clock is checked for due retries, by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(20);

    private RetrySchedulerTopology() {
    }

    public static void build(StreamsBuilder builder, Topics topics, Duration checkInterval) {
        builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PENDING_STORE), Serdes.String(),
                AvroSerde.specific(RetryRequest.class).configured(topics.serdeConfig, false)));
        List<String> delayTopics = topics.retryDelay.values().stream().map(Topics.Topic::name).toList();
        builder.stream(delayTopics, Consumed.with(Serdes.String(), topics.retryReady.valueSerde()).withName("read-retry-delays"))
                .process(() -> new Scheduler(checkInterval), Named.as("schedule-retries"), PENDING_STORE)
                .to(topics.retryReady.name(), topics.retryReady.produced().withName("write-retry-ready"));
    }

    /** The store key: due time (13 digits, so keys sort by it), task and result id. */
    static String key(RetryRequest retry) {
        return String.format("%013d/%s/%s", retry.getDueAt().toEpochMilli(), retry.getTaskId(), retry.getResultId());
    }

    private static final class Scheduler implements Processor<String, RetryRequest, String, RetryRequest> {
        private final Duration checkInterval;
        private ProcessorContext<String, RetryRequest> context;
        private KeyValueStore<String, RetryRequest> pending;

        Scheduler(Duration checkInterval) {
            this.checkInterval = checkInterval;
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
            } else {
                pending.put(key(retry), retry);
            }
        }

        /** Forwards, oldest first, every retry whose due time has come. */
        private void forwardDue(long now) {
            String upTo = String.format("%013d/\uffff", now);
            try (KeyValueIterator<String, RetryRequest> due = pending.range("0", upTo)) {
                while (due.hasNext()) {
                    KeyValue<String, RetryRequest> entry = due.next();
                    context.forward(new Record<>(entry.value.getTaskId(), entry.value, now));
                    pending.delete(entry.key);
                }
            }
        }
    }
}
