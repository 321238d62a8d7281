package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the registry's schemas in a compacted, single-partition Kafka topic ({@code _schemas}), in the layout
 * Confluent's registry uses: JSON keys {@code {"keytype":"SCHEMA","subject":..,"version":..}} and
 * {@code {"keytype":"CONFIG","subject":..}}, JSON values. At start it reads the topic to its end, so ids and
 * versions survive restarts of the service and the broker. A change is written, and acknowledged by the broker,
 * before it becomes visible. Before each change it catches up with the topic, so a second registry writing to
 * the same topic is seen; two registering at the same instant is not guarded against (run one writer).
 */
public final class KafkaSchemaStore implements SchemaStore {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSchemaStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);

    private final SchemaRegistryState state = new SchemaRegistryState();
    private final TopicPartition partition;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> consumer;

    /**
     * @param topic         the schemas topic, already created (compacted, one partition)
     * @param clientConfigs Kafka client settings: bootstrap servers, security
     */
    public KafkaSchemaStore(String topic, Map<String, Object> clientConfigs) {
        this.partition = new TopicPartition(topic, 0);
        Map<String, Object> producerConfigs = new HashMap<>(clientConfigs);
        producerConfigs.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfigs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfigs.put(ProducerConfig.CLIENT_ID_CONFIG, "schema-registry-writer");
        this.producer = new KafkaProducer<>(producerConfigs, new StringSerializer(), new StringSerializer());
        Map<String, Object> consumerConfigs = new HashMap<>(clientConfigs);
        consumerConfigs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfigs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfigs.put(ConsumerConfig.CLIENT_ID_CONFIG, "schema-registry-reader");
        consumerConfigs.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        consumerConfigs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(consumerConfigs, new StringDeserializer(), new StringDeserializer());
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        catchUp();
        LOG.info("Schema store loaded {} subject(s) from topic {}", state.subjects().size(), topic);
    }

    @Override
    public SchemaRegistryState state() {
        return state;
    }

    @Override
    public synchronized RegisteredSchema register(String subject, String schemaText) {
        catchUp();
        SchemaRegistryState.Registration registration = state.prepare(subject, schemaText);
        if (registration.isNew()) {
            RegisteredSchema entry = registration.schema();
            ObjectNode key = JSON.createObjectNode().put("keytype", "SCHEMA").put("subject", subject)
                    .put("version", entry.version()).put("magic", 1);
            ObjectNode value = JSON.createObjectNode().put("subject", subject).put("version", entry.version())
                    .put("id", entry.id()).put("schema", entry.schema()).put("deleted", false);
            write(key, value);
            state.apply(entry);
        }
        return registration.schema();
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        catchUp();
        ObjectNode key = JSON.createObjectNode().put("keytype", "CONFIG").put("subject", subject).put("magic", 0);
        write(key, JSON.createObjectNode().put("compatibilityLevel", level.name()));
        state.setCompatibility(subject, level);
    }

    @Override
    public synchronized void refresh() {
        catchUp();
    }

    @Override
    public synchronized void close() {
        producer.close(Duration.ofSeconds(5));
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }

    private void write(ObjectNode key, ObjectNode value) {
        try {
            producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), key.toString(), value.toString()))
                    .get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw storeError(e);
        } catch (ExecutionException | TimeoutException e) {
            throw storeError(e);
        }
        catchUp();
    }

    private static SchemaRegistryException storeError(Exception e) {
        return new SchemaRegistryException(500, SchemaRegistryException.STORE_ERROR,
                "Error while writing to the schemas topic: " + e);
    }

    /** Reads the topic up to its current end, applying every entry. */
    private void catchUp() {
        long end = consumer.endOffsets(List.of(partition), Duration.ofSeconds(30)).get(partition);
        while (consumer.position(partition, Duration.ofSeconds(30)) < end) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                apply(record);
            }
        }
    }

    private void apply(ConsumerRecord<String, String> record) {
        if (record.key() == null || record.value() == null) {
            return;
        }
        try {
            JsonNode key = JSON.readTree(record.key());
            JsonNode value = JSON.readTree(record.value());
            switch (key.path("keytype").asText()) {
                case "SCHEMA" -> {
                    if (!value.path("deleted").asBoolean(false)) {
                        state.apply(new RegisteredSchema(value.path("subject").asText(), value.path("version").asInt(),
                                value.path("id").asInt(), value.path("schema").asText()));
                    }
                }
                case "CONFIG" -> state.setCompatibility(key.path("subject").isNull() ? null : key.path("subject").asText(),
                        CompatibilityLevel.parse(value.path("compatibilityLevel").asText()));
                default -> LOG.debug("Skipping schemas-topic entry of key type {}", key.path("keytype").asText());
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Skipping unreadable schemas-topic entry at offset {}: {}", record.offset(), e.toString());
        }
    }
}
