package io.agentoutcomes.client;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The orchestrator's side of the retry loop: reads {@code retry-ready} (and, if asked, {@code dead-letter}) as a
 * consumer group, {@code read_committed}, and hands each due retry to a {@link RetryHandler}.
 * <p>
 * Guarantees (docs/client.md#guarantees):
 * <ul>
 *   <li><b>at least once</b>: an offset is committed only after the handler returned for its record, so a record
 *       whose handling was cut short (a crash, a rebalance, the handler throwing) is handed over again;</li>
 *   <li><b>idempotent by result id</b> within one consumer: a retry whose failed result id it already handled
 *       (a redelivery) is skipped and counted in {@link #duplicatesSkipped()}. After a restart the memory is empty,
 *       so a retry handled just before a crash is handed over once more: the re-run should publish its result with
 *       a result id derived from the task and attempt ({@link ResultBuilder}'s default), which the pipeline
 *       de-duplicates;</li>
 *   <li><b>never early</b>: a retry read before its due time (the pipeline never delivers one; clocks can differ) is
 *       held until due, at most {@link Options#maxHold()}.</li>
 * </ul>
 * {@link #run()} polls until {@link #close()}; {@link #start()} runs it on a thread of its own.
 */
public final class RetryConsumer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetryConsumer.class);

    /**
     * How the consumer behaves.
     *
     * @param deadLetters        also read {@code dead-letter} and call {@link RetryHandler#onDeadLetter}
     * @param rememberedIds      how many handled result ids it remembers, to skip redeliveries
     * @param redeliveryBackoff  how long it waits before handing over again a record whose handler threw
     * @param maxHold            the longest it holds a retry read before its due time
     */
    public record Options(boolean deadLetters, int rememberedIds, Duration redeliveryBackoff, Duration maxHold) {
        public static final Options DEFAULT = new Options(false, 100_000, Duration.ofSeconds(1), Duration.ofSeconds(30));

        public Options {
            if (rememberedIds < 0) {
                throw new IllegalArgumentException("rememberedIds must not be negative");
            }
            Objects.requireNonNull(redeliveryBackoff);
            Objects.requireNonNull(maxHold);
        }

        public Options withDeadLetters(boolean read) {
            return new Options(read, rememberedIds, redeliveryBackoff, maxHold);
        }
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final Deserializer<RetryRequest> retries;
    private final Deserializer<ClassifiedOutcome> deadLetters;
    private final PipelineTopics topics;
    private final RetryHandler handler;
    private final Options options;
    private final Map<String, Boolean> handled;
    private final CountDownLatch assigned = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong retriesHandled = new AtomicLong();
    private final AtomicLong deadLettersHandled = new AtomicLong();
    private final AtomicLong duplicatesSkipped = new AtomicLong();
    private final AtomicLong handlerFailures = new AtomicLong();
    private volatile boolean running = true;
    private volatile Thread thread;

    private RetryConsumer(Map<String, ?> settings, String groupId, RetryHandler handler, Options options) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.options = options;
        Object prefix = settings.get(OutcomePublisher.TOPIC_PREFIX);
        this.topics = new PipelineTopics(prefix == null ? "" : prefix.toString());
        Map<String, Object> config = new HashMap<>(settings);
        config.remove(OutcomePublisher.TOPIC_PREFIX);
        config.keySet().removeIf(k -> k.startsWith("schema.registry.") || k.startsWith("basic.auth.") || k.startsWith("bearer.auth.")
                || k.equals(AvroSerdeConfig.SPECIFIC_AVRO_READER) || k.equals(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS)
                || k.equals(AvroSerdeConfig.USE_LATEST_VERSION) || k.equals(AvroSerdeConfig.LATEST_CACHE_TTL_SEC));
        config.put(ConsumerConfig.GROUP_ID_CONFIG, Objects.requireNonNull(groupId, "groupId"));
        // the pipeline writes exactly-once: read only committed transactions
        config.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
        this.retries = AvroSerde.specific(RetryRequest.class).configured(settings, false).deserializer();
        this.deadLetters = AvroSerde.specific(ClassifiedOutcome.class).configured(settings, false).deserializer();
        int capacity = options.rememberedIds();
        this.handled = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * A consumer in group {@code groupId} with these settings: those of a Kafka consumer plus
     * {@code schema.registry.url} and {@code topic.prefix}. A new group starts at the earliest retry unless
     * {@code auto.offset.reset} says otherwise.
     */
    public static RetryConsumer create(Map<String, ?> settings, String groupId, RetryHandler handler, Options options) {
        return new RetryConsumer(settings, groupId, handler, options);
    }

    /** Runs {@link #run()} on a daemon thread of its own. */
    public RetryConsumer start() {
        Thread t = new Thread(this::run, "retry-consumer");
        t.setDaemon(true);
        thread = t;
        t.start();
        return this;
    }

    /** Waits until the group gave this consumer its partitions (false if not within the timeout). */
    public boolean awaitAssignment(Duration timeout) throws InterruptedException {
        return assigned.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Polls and hands over records until {@link #close()}; at most one thread may run it. */
    public void run() {
        thread = Thread.currentThread();
        List<String> subscribed = new ArrayList<>(List.of(topics.retryReady()));
        if (options.deadLetters()) {
            subscribed.add(topics.deadLetter());
        }
        try {
            consumer.subscribe(subscribed, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (!partitions.isEmpty()) {
                        assigned.countDown();
                    }
                }
            });
            while (running) {
                ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(200));
                Instant receivedAt = Instant.now();
                for (TopicPartition partition : records.partitions()) {
                    handlePartition(partition, records.records(partition), receivedAt);
                }
            }
        } catch (WakeupException e) {
            // close() was called
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                consumer.close(CloseOptions.timeout(Duration.ofSeconds(10)));
            } finally {
                stopped.countDown();
            }
        }
    }

    /** Hands over a partition's records in order; commits those handled; on a failure, seeks back to the failed one. */
    private void handlePartition(TopicPartition partition, List<ConsumerRecord<String, byte[]>> records, Instant receivedAt)
            throws InterruptedException {
        long next = -1;
        for (ConsumerRecord<String, byte[]> record : records) {
            if (!running) {
                break;
            }
            try {
                handle(record, receivedAt);
                next = record.offset() + 1;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                handlerFailures.incrementAndGet();
                LOG.warn("Handling {} at {}-{} failed; it is handed over again in {} ms: {}", record.topic(),
                        partition, record.offset(), options.redeliveryBackoff().toMillis(), e.toString());
                consumer.seek(partition, record.offset());
                Thread.sleep(options.redeliveryBackoff().toMillis());
                break;
            }
        }
        if (next >= 0) {
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(next)));
        }
    }

    private void handle(ConsumerRecord<String, byte[]> record, Instant receivedAt) throws Exception {
        if (record.topic().equals(topics.deadLetter())) {
            ClassifiedOutcome stopped = deadLetters.deserialize(record.topic(), record.headers(), record.value());
            if (stopped != null && firstTime("dead-letter/" + stopped.getResultId())) {
                handler.onDeadLetter(stopped);
                deadLettersHandled.incrementAndGet();
                remember("dead-letter/" + stopped.getResultId());
            }
            return;
        }
        RetryRequest request = retries.deserialize(record.topic(), record.headers(), record.value());
        if (request == null) {
            return;
        }
        DueRetry retry = DueRetry.read(request, receivedAt, record);
        if (!firstTime(retry.handledKey())) {
            return;
        }
        holdUntilDue(retry);
        handler.onRetry(retry);
        retriesHandled.incrementAndGet();
        remember(retry.handledKey());
    }

    private void holdUntilDue(DueRetry retry) throws InterruptedException {
        long wait = Math.min(retry.dueAt().toEpochMilli() - System.currentTimeMillis(), options.maxHold().toMillis());
        if (wait > 0) {
            LOG.warn("Retry of task {} read {} ms before it is due; holding it", retry.taskId(), wait);
            Thread.sleep(wait);
        }
    }

    private boolean firstTime(String id) {
        synchronized (handled) {
            if (handled.containsKey(id)) {
                duplicatesSkipped.incrementAndGet();
                return false;
            }
            return true;
        }
    }

    private void remember(String id) {
        synchronized (handled) {
            handled.put(id, Boolean.TRUE);
        }
    }

    /** Retries handed to the handler that returned. */
    public long retriesHandled() {
        return retriesHandled.get();
    }

    public long deadLettersHandled() {
        return deadLettersHandled.get();
    }

    /** Records skipped because their result id was already handled. */
    public long duplicatesSkipped() {
        return duplicatesSkipped.get();
    }

    /** Handler calls that threw (their records were handed over again). */
    public long handlerFailures() {
        return handlerFailures.get();
    }

    /** Stops polling, lets the record in hand finish, commits, and leaves the group. */
    @Override
    public void close() {
        running = false;
        if (thread == null) {
            consumer.close();
            return;
        }
        try {
            if (thread != Thread.currentThread() && !stopped.await(30, TimeUnit.SECONDS)) {
                // a handler still busy: interrupt it; its record is not committed and is handed over again later
                thread.interrupt();
                consumer.wakeup();
                stopped.await(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
