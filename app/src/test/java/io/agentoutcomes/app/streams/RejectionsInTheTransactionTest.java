package io.agentoutcomes.app.streams;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.registry.SchemaRegistryUnavailableException;
import io.agentoutcomes.client.testing.TestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ContextualFixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records the rejecting handlers give Kafka Streams for {@code rejected-input} (KIP-1034's dead letter records)
 * are written by the task's own producer, inside its exactly-once transaction: when the transaction is aborted, the
 * rejections go with it, and the records are rejected again, once, when read again. Shown on a real broker with the
 * service's handlers: an undecodable record and an unprocessable one, then a schema registry outage that fails the
 * stream thread before any commit (the service's path: the thread is replaced, its task's transaction aborted).
 */
class RejectionsInTheTransactionTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    /** Registry outages still to throw, across the stream threads of the test (the replacement reads the records again). */
    private static final AtomicInteger OUTAGES = new AtomicInteger();

    @TempDir
    Path stateDir;

    private final String prefix = "dlq-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private final String input = prefix + "in";
    private final String output = prefix + "out";
    private final String rejected = prefix + "rejected-input";

    /** A value decoder that cannot decode {@code undecodable}. */
    public static final class PickyDeserializer implements Deserializer<String> {
        @Override
        public String deserialize(String topic, byte[] data) {
            String value = new String(data, StandardCharsets.UTF_8);
            if (value.equals("undecodable")) {
                throw new IllegalArgumentException("cannot decode " + value);
            }
            return value;
        }
    }

    /** Throws on {@code poison}; on {@code outage}, a registry outage while one is still to throw. */
    private static final class Stage extends ContextualFixedKeyProcessor<String, String, String> {
        @Override
        public void process(FixedKeyRecord<String, String> record) {
            if (record.value().equals("poison")) {
                throw new IllegalStateException("cannot process poison");
            }
            if (record.value().equals("outage") && OUTAGES.getAndDecrement() > 0) {
                throw new SchemaRegistryUnavailableException("registry down", null);
            }
            context().forward(record);
        }
    }

    private Properties streamsConfig() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, prefix + "app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingDeserializationHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingProcessingHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, rejected);
        // No commit between the first record and the outage: the four records are in one transaction.
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 5_000);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // The service's session (6 s, docs/operations.md): the failed thread does not leave the group, so its
        // replacement gets the task once the session expires (Kafka's 45 s made this test take 54 s in .ci/run)
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6_000);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 2_000);
        return props;
    }

    @Test
    void rejectionsOfAnAbortedTransactionAreAbortedWithItAndWrittenOnceWhenTheRecordsAreReadAgain() throws Exception {
        kafka.createTopics(1, input, output, rejected);
        OUTAGES.set(1);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new StringSerializer())) {
            for (String value : List.of("undecodable", "poison", "ok", "outage")) {
                producer.send(new ProducerRecord<>(input, value, value));
            }
            producer.flush();
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.serdeFrom(new StringSerializer(),
                        new PickyDeserializer())))
                .processValues(Stage::new)
                .to(output, Produced.with(Serdes.String(), Serdes.String()));

        try (KafkaStreams streams = new KafkaStreams(builder.build(), streamsConfig())) {
            streams.setUncaughtExceptionHandler(new StreamThreadFailureHandler(fatal -> { }));
            streams.start();

            assertThat(values(output, "read_committed", 2)).containsExactly("ok", "outage");
            assertThat(values(rejected, "read_committed", 2)).containsExactly("undecodable", "poison");
        }
        assertThat(OUTAGES.get()).as("the outage was thrown").isNegative();
        // The first transaction's writes are on the log, aborted: a reader that does not skip them sees both runs.
        assertThat(values(rejected, "read_uncommitted", 4)).containsExactly("undecodable", "poison", "undecodable", "poison");
        assertThat(values(output, "read_uncommitted", 3)).containsExactly("ok", "ok", "outage");
    }

    /** The values on {@code topic}, read to its end at the isolation level, once {@code expected} have been read. */
    private static List<String> values(String topic, String isolation, int expected) throws InterruptedException {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        List<String> values = new ArrayList<>();
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            waitForCondition(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
                return values.size() >= expected
                        && consumer.position(partition) >= consumer.endOffsets(List.of(partition)).get(partition);
            }, 60_000, () -> topic + " (" + isolation + "): " + values);
        }
        return values;
    }
}
