package io.agentoutcomes.app.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads output topics from the beginning, {@code read_committed}, for the whole scenario, keeping every record as
 * bytes with the wall-clock time it became visible (so recovery can be timed: the first outcome seen after a fault).
 * Values are decoded by the checks afterwards, when the registry is surely up: a watcher must not die because the
 * instance that runs the registry was killed.
 */
final class TopicWatcher implements AutoCloseable {
    /** One record as read, with when it was read. */
    record Seen(ConsumerRecord<byte[], byte[]> record, long readAtMs) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<Seen> seen = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    TopicWatcher(String bootstrapServers, List<String> topics) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "faults-watcher-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.METADATA_MAX_AGE_CONFIG, "2000",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 * 1024 * 1024)),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(topics);
        thread = new Thread(this::poll, "watcher-" + String.join(",", topics));
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(200));
                long now = System.currentTimeMillis();
                synchronized (seen) {
                    records.forEach(r -> seen.add(new Seen(r, now)));
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            System.err.println("watcher stopped: " + e);
        }
    }

    /** Everything read so far, in reading order. */
    List<Seen> records() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** Everything read so far from one topic. */
    List<Seen> records(String topic) {
        return records().stream().filter(s -> s.record().topic().equals(topic)).toList();
    }

    /**
     * Waits until {@code done} holds for what was read, or the deadline passes; then reads {@code settle} longer, so a
     * duplicate that comes after the expected count is caught.
     */
    boolean await(Predicate<List<Seen>> done, Duration timeout, Duration settle) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean reached = false;
        while (System.nanoTime() < deadline) {
            if (done.test(records())) {
                reached = true;
                break;
            }
            Thread.sleep(250);
        }
        Thread.sleep(settle.toMillis());
        return reached;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
