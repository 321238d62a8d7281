package io.agentoutcomes.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A read_committed consumer of a topic's records written after it was opened: what a downstream reader sees once
 * the writing transactions commit. Opened before the application under test starts.
 */
final class OutputCounter implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;

    OutputCounter(String bootstrap, String topic) {
        this.topic = topic;
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10));
        consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        if (partitions.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist");
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(p -> consumer.position(p, Duration.ofSeconds(30)));
    }

    /**
     * Reads until {@code expected} new records have been seen; each one also goes to {@code each} if given.
     *
     * @return when the last one was seen (System.nanoTime)
     * @throws IllegalStateException if they do not all arrive within the timeout
     */
    long await(long expected, Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        long seen = 0;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (seen < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + seen + " of " + expected + " records arrived on " + topic + " in "
                        + timeout.toSeconds() + " s");
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(20));
            seen += records.count();
            if (each != null) {
                records.forEach(each);
            }
        }
        long last = System.nanoTime();
        if (seen > expected) {
            throw new IllegalStateException(seen + " records arrived on " + topic + ", " + expected + " expected");
        }
        return last;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
