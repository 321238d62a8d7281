package io.agentoutcomes.app.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends the generator's records with an idempotent producer ({@code acks=all}), from a thread of its own at a steady
 * rate, so load keeps coming while the service or a broker is down. A send that fails is kept and fails the scenario:
 * the tally would otherwise expect a record that was never written.
 */
final class LoadProducer implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private Thread thread;
    private volatile boolean running;

    LoadProducer(String bootstrapServers) {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "180000",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 * 1024 * 1024)),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends one batch now. */
    void send(List<ProducerRecord<byte[], byte[]>> records) {
        for (ProducerRecord<byte[], byte[]> record : records) {
            sent.incrementAndGet();
            producer.send(record, (metadata, error) -> {
                if (error != null) {
                    failures.add(record.topic() + ": " + error);
                } else {
                    acked.incrementAndGet();
                }
            });
        }
    }

    /** Sends {@code perBatch} of the generator's records every {@code every}, until {@link #stop}. */
    void startSteady(MixedLoad load, int perBatch, Duration every) {
        running = true;
        thread = new Thread(() -> {
            while (running) {
                send(load.next(perBatch));
                try {
                    Thread.sleep(every.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "load-producer");
        thread.start();
    }

    /** Stops the steady load and waits until every record sent is acknowledged. */
    void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join();
        }
        producer.flush();
    }

    void flush() {
        producer.flush();
    }

    long sent() {
        return sent.get();
    }

    long acked() {
        return acked.get();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        running = false;
        try {
            if (thread != null) {
                thread.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(10));
    }
}
