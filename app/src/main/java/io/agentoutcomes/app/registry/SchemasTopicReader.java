package io.agentoutcomes.app.registry;

import io.agentoutcomes.app.registry.SchemasTopicLayout.ConfigEntry;
import io.agentoutcomes.app.registry.SchemasTopicLayout.Entry;
import io.agentoutcomes.app.registry.SchemasTopicLayout.SchemaEntry;
import io.agentoutcomes.app.registry.SchemasTopicLayout.Writer;
import io.agentoutcomes.app.registry.SchemasTopicLayout.WriterEntry;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the schemas topic from its start, committed records only (read_committed), into a registry's state: the
 * schemas and compatibility levels, and each writer announced ({@code onWriter}).
 */
final class SchemasTopicReader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemasTopicReader.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final TopicPartition partition;
    private final SchemaRegistryState state;
    private final Consumer<Writer> onWriter;
    private final KafkaConsumer<String, String> consumer;

    SchemasTopicReader(TopicPartition partition, Map<String, Object> clientConfigs, SchemaRegistryState state,
                       Consumer<Writer> onWriter) {
        this.partition = partition;
        this.state = state;
        this.onWriter = onWriter;
        Map<String, Object> consumerConfigs = new HashMap<>(clientConfigs);
        consumerConfigs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfigs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfigs.put(ConsumerConfig.CLIENT_ID_CONFIG, "schema-registry-reader");
        consumerConfigs.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        consumerConfigs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(consumerConfigs, new StringDeserializer(), new StringDeserializer());
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
    }

    /** Reads the topic up to its current end (its last stable offset: committed data only), applying every entry. */
    void catchUp() {
        long end = consumer.endOffsets(List.of(partition), READ_TIMEOUT).get(partition);
        while (consumer.position(partition, READ_TIMEOUT) < end) {
            pollOnce();
        }
    }

    /** Reads on, past the current end, until {@code done} holds or the timeout passes. */
    void catchUpUntil(BooleanSupplier done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        catchUp();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            pollOnce();
        }
    }

    private void pollOnce() {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
            apply(record);
        }
    }

    private void apply(ConsumerRecord<String, String> record) {
        try {
            SchemasTopicLayout.read(record.key(), record.value()).ifPresent(this::apply);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Skipping unreadable schemas-topic entry at offset {}: {}", record.offset(), e.toString());
        }
    }

    private void apply(Entry entry) {
        if (entry instanceof SchemaEntry schema) {
            state.apply(schema.schema());
        } else if (entry instanceof ConfigEntry config) {
            state.setCompatibility(config.subject(), config.level());
        } else if (entry instanceof WriterEntry writer) {
            onWriter.accept(writer.writer());
        }
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
