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
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the registry's schemas in a compacted, single-partition Kafka topic ({@code _schemas}), in the layout
 * Confluent's registry uses: JSON keys {@code {"keytype":"SCHEMA","subject":..,"version":..}} and
 * {@code {"keytype":"CONFIG","subject":..}}, JSON values. At start it reads the topic to its end, so ids and
 * versions survive restarts of the service and the broker.
 *
 * <p>Several registries may share the topic (every instance of a scaled-out service runs one); exactly one writes.
 * Writes go through a transactional producer whose {@code transactional.id} is the same for every registry of the
 * topic, so the registry that last called {@code initTransactions} is the only one whose transactions commit: the
 * others are fenced. Each write reads the topic to its end (read_committed), assigns the id, and commits; since
 * initialising completes every earlier writer's transaction, the writer always assigns from every committed
 * schema, and an id is never given to two schemas. The writer announces its URL in the topic with a record of its
 * own key type ({@code EMBEDDED_WRITER}, not one of Confluent's; read as routing, never as schema data); the others
 * answer writes with {@link NotTheWriterException} naming it. A registry becomes the writer when it opens, when no
 * writer is announced (the last one closed), or when the announced one does not answer.
 */
public final class KafkaSchemaStore implements SchemaStore {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSchemaStore.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WRITER_KEY_TYPE = "EMBEDDED_WRITER";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    /** How long a fenced writer waits to read who fenced it before it concludes that registry is gone. */
    private static final Duration NEW_WRITER_WAIT = Duration.ofSeconds(5);
    private static final int WRITE_ATTEMPTS = 3;

    /** The registry that writes the topic: an id per running store (a restart on the same URL is another writer). */
    private record Writer(String instance, String url) {
    }

    private final SchemaRegistryState state = new SchemaRegistryState();
    private final TopicPartition partition;
    private final Map<String, Object> producerConfigs;
    private final KafkaConsumer<String, String> consumer;
    private final String instance = UUID.randomUUID().toString();
    private String ownUrl;
    /** Present while this registry is the writer. */
    private KafkaProducer<String, String> producer;
    /** The writer last announced on the topic; null when none is. */
    private Writer announced;

    /**
     * @param topic         the schemas topic, already created (compacted, one partition)
     * @param clientConfigs Kafka client settings: bootstrap servers, security
     */
    public KafkaSchemaStore(String topic, Map<String, Object> clientConfigs) {
        this.partition = new TopicPartition(topic, 0);
        this.producerConfigs = new HashMap<>(clientConfigs);
        producerConfigs.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfigs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfigs.put(ProducerConfig.CLIENT_ID_CONFIG, "schema-registry-writer");
        // Derived from the topic, not the application id: every embedded registry on the cluster writes this topic.
        producerConfigs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(topic));
        // A writer that dies mid-write holds the topic's readers back until its transaction times out or a new writer starts.
        producerConfigs.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 15_000);
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

    /** The {@code transactional.id} every embedded registry writing {@code topic} uses. */
    public static String transactionalId(String topic) {
        return topic + "-embedded-registry-writer";
    }

    /** Becomes the writer, fencing the one before. */
    @Override
    public synchronized void open(String advertisedUrl) {
        ownUrl = advertisedUrl;
        try {
            takeOver();
        } catch (Fenced e) {
            // Another registry started at the same moment and came second: it is the writer.
            LOG.info("Schema registry {} started as a reader: another registry became the writer of {} meanwhile",
                    ownUrl, partition.topic());
        }
    }

    @Override
    public SchemaRegistryState state() {
        return state;
    }

    /** The URL of the registry that writes the topic, as last announced on it. */
    public synchronized Optional<String> writerUrl() {
        return Optional.ofNullable(announced).map(Writer::url);
    }

    @Override
    public synchronized RegisteredSchema register(String subject, String schemaText) {
        for (int attempt = 1; ; attempt++) {
            catchUp();
            SchemaRegistryState.Registration registration = state.prepare(subject, schemaText);
            if (!registration.isNew()) {
                return registration.schema();
            }
            RegisteredSchema entry = registration.schema();
            ObjectNode key = JSON.createObjectNode().put("keytype", "SCHEMA").put("subject", subject)
                    .put("version", entry.version()).put("magic", 1);
            ObjectNode value = JSON.createObjectNode().put("subject", subject).put("version", entry.version())
                    .put("id", entry.id()).put("schema", entry.schema()).put("deleted", false);
            try {
                becomeWriterUnlessAnotherIs();
                commit(key, value);
                state.apply(entry);
                return entry;
            } catch (Fenced e) {
                afterFenced(attempt);
            }
        }
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        ObjectNode key = JSON.createObjectNode().put("keytype", "CONFIG").put("subject", subject).put("magic", 0);
        for (int attempt = 1; ; attempt++) {
            catchUp();
            try {
                becomeWriterUnlessAnotherIs();
                commit(key, JSON.createObjectNode().put("compatibilityLevel", level.name()));
                state.setCompatibility(subject, level);
                return;
            } catch (Fenced e) {
                afterFenced(attempt);
            }
        }
    }

    @Override
    public synchronized void refresh() {
        catchUp();
    }

    @Override
    public synchronized void refreshUntil(BooleanSupplier done, Duration timeout) {
        catchUpUntil(done, timeout);
    }

    @Override
    public synchronized void writerUnreachable(String writerUrl) {
        catchUp();
        if (producer == null && announced != null && announced.url().equals(writerUrl)) {
            LOG.warn("The schema registry writer at {} does not answer: {} takes the writer's role over", writerUrl, ownUrl);
            try {
                takeOver();
            } catch (Fenced e) {
                LOG.info("Another schema registry took the writer's role over first");
            }
        }
    }

    /** Withdraws this registry's announcement when it is the writer, so the next write elsewhere takes over at once. */
    @Override
    public synchronized void close() {
        if (producer != null) {
            try {
                commit(writerKey(), null);
            } catch (Fenced | SchemaRegistryException e) {
                LOG.debug("Schema registry {} could not withdraw as writer: {}", ownUrl, e.toString());
            }
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
        }
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }

    /** Returns when this registry is the writer; throws when another is announced. */
    private void becomeWriterUnlessAnotherIs() {
        if (producer != null) {
            return;
        }
        if (announced != null && !announced.instance().equals(instance)) {
            throw new NotTheWriterException(announced.url());
        }
        if (ownUrl == null) {
            throw new IllegalStateException("The schema store must be opened with its registry's URL before writes");
        }
        takeOver();
    }

    /**
     * Initialises a transactional producer, which fences every other registry of the topic and completes their
     * unfinished transaction, reads the topic to its end, then announces this registry as the writer.
     */
    private void takeOver() {
        KafkaProducer<String, String> candidate = new KafkaProducer<>(producerConfigs, new StringSerializer(),
                new StringSerializer());
        try {
            candidate.initTransactions();
            // Read before holding the producer: announcements read now are older than this writer, not a sign of fencing.
            catchUp();
        } catch (RuntimeException e) {
            candidate.close(Duration.ZERO);
            throw e instanceof KafkaException ? storeError(e) : e;
        }
        producer = candidate;
        commit(writerKey(), JSON.createObjectNode().put("url", ownUrl).put("instance", instance));
        announced = new Writer(instance, ownUrl);
        LOG.info("Schema registry {} is the writer of topic {}", ownUrl, partition.topic());
    }

    /** A fenced write: wait to read who fenced this registry; on the last attempt, give up. */
    private void afterFenced(int attempt) {
        if (attempt >= WRITE_ATTEMPTS) {
            throw new SchemaRegistryException(500, SchemaRegistryException.STORE_ERROR,
                    "Error while writing to the schemas topic: other registries kept taking the writer's role over");
        }
        catchUpUntil(() -> announced == null || !announced.instance().equals(instance), NEW_WRITER_WAIT);
    }

    /** Writes one record in a transaction; throws {@link Fenced} when another registry has become the writer. */
    private void commit(ObjectNode key, ObjectNode value) {
        try {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), key.toString(),
                    value == null ? null : value.toString()));
            producer.commitTransaction();
        } catch (KafkaException e) {
            dropWriterRole();
            if (isFencing(e)) {
                LOG.info("Schema registry {} was fenced: another registry is now the writer of {}", ownUrl, partition.topic());
                throw new Fenced();
            }
            // The outcome is unknown: the next write initialises a new producer, which settles this transaction first.
            throw storeError(e);
        }
    }

    private void dropWriterRole() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    private static boolean isFencing(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode writerKey() {
        return JSON.createObjectNode().put("keytype", WRITER_KEY_TYPE).put("magic", 0);
    }

    private static SchemaRegistryException storeError(Exception e) {
        return new SchemaRegistryException(500, SchemaRegistryException.STORE_ERROR,
                "Error while writing to the schemas topic: " + e);
    }

    /** Reads the topic up to its current end (its last stable offset: committed data only), applying every entry. */
    private void catchUp() {
        long end = consumer.endOffsets(List.of(partition), READ_TIMEOUT).get(partition);
        while (consumer.position(partition, READ_TIMEOUT) < end) {
            pollOnce();
        }
    }

    /** Reads on, past the current end, until {@code done} holds or the timeout passes. */
    private void catchUpUntil(BooleanSupplier done, Duration timeout) {
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
        if (record.key() == null) {
            return;
        }
        try {
            JsonNode key = JSON.readTree(record.key());
            String keyType = key.path("keytype").asText();
            if (keyType.equals(WRITER_KEY_TYPE)) {
                applyWriter(record.value() == null ? null : JSON.readTree(record.value()));
                return;
            }
            if (record.value() == null) {
                return;
            }
            JsonNode value = JSON.readTree(record.value());
            switch (keyType) {
                case "SCHEMA" -> {
                    if (!value.path("deleted").asBoolean(false)) {
                        state.apply(new RegisteredSchema(value.path("subject").asText(), value.path("version").asInt(),
                                value.path("id").asInt(), value.path("schema").asText()));
                    }
                }
                case "CONFIG" -> state.setCompatibility(key.path("subject").isNull() ? null : key.path("subject").asText(),
                        CompatibilityLevel.parse(value.path("compatibilityLevel").asText()));
                default -> LOG.debug("Skipping schemas-topic entry of key type {}", keyType);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Skipping unreadable schemas-topic entry at offset {}: {}", record.offset(), e.toString());
        }
    }

    private void applyWriter(JsonNode value) {
        announced = value == null ? null : new Writer(value.path("instance").asText(), value.path("url").asText());
        // Only a registry that initialised after this one's takeover can have committed this: this one is fenced.
        if (producer != null && announced != null && !announced.instance().equals(instance)) {
            LOG.info("Schema registry {} hands the writer's role to {}", ownUrl, announced.url());
            dropWriterRole();
        }
    }

    /** This registry is no longer the writer: another one initialised the same transactional id. */
    private static final class Fenced extends RuntimeException {
        Fenced() {
            super(null, null, false, false);
        }
    }
}
