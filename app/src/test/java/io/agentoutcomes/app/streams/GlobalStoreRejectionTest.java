package io.agentoutcomes.app.streams;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.client.testing.TestBroker;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record of a global store (the service's {@code budget-status}) that its processor cannot take, with the service's
 * {@code processing.exception.handler.global.enabled=true}: the rejecting processing handler answers for it, the
 * record is skipped and the next one kept, Kafka Streams goes on, and nothing is written to {@code rejected-input}
 * (Kafka Streams 4.3 writes no dead letter record from the global thread). Left off, the global thread ends, and
 * with it the instance.
 */
class GlobalStoreRejectionTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    private static final String STORE = "statuses";

    @TempDir
    Path stateDir;

    private final String prefix = "global-" + UUID.randomUUID().toString().substring(0, 8) + ".";
    private final String statuses = prefix + "statuses";
    private final String rejected = prefix + "rejected-input";

    /** Keeps each status, but cannot take {@code poison}. */
    private static final class Updater implements Processor<String, String, Void, Void> {
        private KeyValueStore<String, String> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> record) {
            if (record.value().equals("poison")) {
                throw new IllegalStateException("cannot keep poison");
            }
            store.put(record.key(), record.value());
        }
    }

    @BeforeEach
    void statuses() throws Exception {
        kafka.createTopics(1, statuses, rejected);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers(), "acks", "all"), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(statuses, "daily", "poison"));
            producer.send(new ProducerRecord<>(statuses, "weekly", "exhausted"));
            producer.flush();
        }
    }

    private KafkaStreams streams(boolean globalHandler) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), Serdes.String(),
                Serdes.String()).withLoggingDisabled(), statuses, Consumed.with(Serdes.String(), Serdes.String()),
                Updater::new);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, prefix + "app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingProcessingHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, rejected);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, globalHandler);
        return new KafkaStreams(builder.build(), props);
    }

    private long rejectedEndOffset() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            TopicPartition partition = new TopicPartition(rejected, 0);
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
        }
    }

    @Test
    void aGlobalRecordThatCannotBeProcessedIsSkippedAndTheNextOneKept() throws Exception {
        try (KafkaStreams streams = streams(true)) {
            streams.start();
            waitForCondition(() -> streams.state() == KafkaStreams.State.RUNNING, 60_000, () -> "state " + streams.state());
            ReadOnlyKeyValueStore<String, String> store = streams.store(StoreQueryParameters.fromNameAndType(STORE,
                    QueryableStoreTypes.keyValueStore()));

            assertThat(store.get("weekly")).isEqualTo("exhausted");
            assertThat(store.get("daily")).isNull();
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
        assertThat(rejectedEndOffset()).as("records on rejected-input").isZero();
    }

    @Test
    void withoutTheGlobalHandlerTheSameRecordEndsKafkaStreams() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (KafkaStreams streams = streams(false)) {
            streams.setUncaughtExceptionHandler(new StreamThreadFailureHandler(failure::set));
            try {
                streams.start();
            } catch (StreamsException startFailed) {
                // the global store is restored, through its processor, before start returns
                failure.compareAndSet(null, startFailed);
            }
            waitForCondition(() -> failure.get() != null, 60_000, () -> "state " + streams.state());
            waitForCondition(() -> streams.state() == KafkaStreams.State.ERROR
                    || streams.state() == KafkaStreams.State.PENDING_ERROR, 60_000, () -> "state " + streams.state());
        }
        assertThat(failure.get()).hasStackTraceContaining("cannot keep poison");
    }
}
