package io.agentoutcomes.topology.schedule;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Holds each retry in the store {@value #PENDING_STORE}, keyed by due time, and forwards it when
 * the wall clock reaches its due time: never before, and within one check interval after. A retry already due is
 * forwarded at once. A check forwards at most {@link SchedulerSettings#maxPerCheck} and the next resumes where it stopped.
 */
public final class RetryScheduler implements Processor<String, RetryRequest, String, RetryRequest> {
    /** The store of pending retries, keyed by {@link PendingRetryKey}, valued by {@link PendingRetries}. */
    public static final String PENDING_STORE = "retry-pending";

    private final SchedulerSettings settings;
    private ProcessorContext<String, RetryRequest> context;
    private KeyValueStore<Bytes, byte[]> pending;
    private final PendingRetries pendingRetries = new PendingRetries();
    /** Where the next check starts: every entry before it has been forwarded. */
    private Bytes resumeFrom = PendingRetryKey.firstDueAt(0);

    public RetryScheduler(SchedulerSettings settings) {
        this.settings = settings;
    }

    /** The scheduler with its store of pending retries. */
    public static ProcessorSupplier<String, RetryRequest, String, RetryRequest> supplier(SchedulerSettings settings) {
        return new StoreOwningSupplier<>(() -> new RetryScheduler(settings), Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(PENDING_STORE), Serdes.Bytes(), Serdes.ByteArray()));
    }

    @Override
    public void init(ProcessorContext<String, RetryRequest> context) {
        this.context = context;
        this.pending = context.getStateStore(PENDING_STORE);
        PunctuationWatch.schedule(Punctuators.RETRY_SCHEDULER, context, settings.checkInterval(), this::forwardDue);
    }

    @Override
    public void process(Record<String, RetryRequest> record) {
        RetryRequest retry = record.value();
        if (retry == null) {
            return;
        }
        long now = context.currentSystemTimeMs();
        if (retry.getDueAt() <= now) {
            context.forward(new Record<>(retry.getTaskId(), retry, now, record.headers()));
            return;
        }
        Bytes key = PendingRetryKey.of(retry);
        pending.put(key, pendingRetries.encode(record.headers(), retry));
        // Only if the wall clock stepped back can a new entry land before where the next check resumes.
        if (key.compareTo(resumeFrom) < 0) {
            resumeFrom = key;
        }
    }

    /** Forwards, oldest first, the retries whose due time has come, at most {@link SchedulerSettings#maxPerCheck} of them. */
    private void forwardDue(long now) {
        int forwarded = 0;
        try (KeyValueIterator<Bytes, byte[]> due = pending.range(resumeFrom, PendingRetryKey.firstDueAt(now + 1))) {
            while (due.hasNext()) {
                KeyValue<Bytes, byte[]> entry = due.next();
                if (forwarded == settings.maxPerCheck()) {
                    resumeFrom = entry.key;
                    return;
                }
                RetryRequest retry = pendingRetries.retry(entry.value);
                context.forward(new Record<>(retry.getTaskId(), retry, now, PendingRetries.headers(entry.value)));
                pending.delete(entry.key);
                forwarded++;
            }
        }
        resumeFrom = PendingRetryKey.firstDueAt(now + 1);
    }
}

