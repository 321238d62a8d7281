package io.agentoutcomes.app.registry;

import io.agentoutcomes.app.registry.SchemasTopicLayout.Writer;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the registry's schemas in a compacted, single-partition Kafka topic ({@code _schemas}), in the layout
 * Confluent's registry uses ({@link SchemasTopicLayout}). At start it reads the topic to its end, so ids and
 * versions survive restarts of the service and the broker.
 *
 * <p>Several registries may share the topic (every instance of a scaled-out service runs one); exactly one writes.
 * Writes go through a transactional producer whose {@code transactional.id} is the same for every registry of the
 * topic, so the registry that last called {@code initTransactions} is the only one whose transactions commit: the
 * others are fenced. Each write reads the topic to its end (read_committed), assigns the id, and commits; since
 * initialising completes every earlier writer's transaction, the writer always assigns from every committed
 * schema, and an id is never given to two schemas. The writer announces its URL in the topic with a record of its
 * own key type; the others answer writes with {@link NotTheWriterException} naming it. A registry becomes the writer when it opens, when no
 * writer is announced (the last one closed), or when the announced one does not answer.
 */
public final class KafkaSchemaStore implements SchemaStore {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaSchemaStore.class);
    /** How long a fenced writer waits to read who fenced it before it concludes that registry is gone. */
    private static final Duration NEW_WRITER_WAIT = Duration.ofSeconds(5);
    private static final int WRITE_ATTEMPTS = 3;

    private final SchemaRegistryState state = new SchemaRegistryState();
    private final TopicPartition partition;
    private final Map<String, Object> producerConfigs;
    private final SchemasTopicReader reader;
    private final String instance = UUID.randomUUID().toString();
    private String ownUrl;
    /** Present while this registry is the writer. */
    private KafkaProducer<String, String> producer;
    /** The writer last announced on the topic; null when none is. */
    private Writer announced;
    private int catchUps;

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
        this.reader = new SchemasTopicReader(partition, clientConfigs, state, this::applyWriter);
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
        // A schema already read is answered without reading the topic again: versions are never removed or renumbered,
        // so a catch-up cannot change the answer. A restart's look-ups of the service's own schemas cost no round trip.
        try {
            return state.lookup(subject, schemaText);
        } catch (SchemaRegistryException notRead) {
            // New here, or invalid: decided below on the topic as it is now.
        }
        for (int attempt = 1; ; attempt++) {
            catchUp();
            SchemaRegistryState.Registration registration = state.prepare(subject, schemaText);
            if (!registration.isNew()) {
                return registration.schema();
            }
            RegisteredSchema entry = registration.schema();
            try {
                becomeWriterUnlessAnotherIs();
                commit(SchemasTopicLayout.schemaKey(entry), SchemasTopicLayout.schemaValue(entry));
                state.apply(entry);
                return entry;
            } catch (Fenced e) {
                afterFenced(attempt);
            }
        }
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        for (int attempt = 1; ; attempt++) {
            catchUp();
            try {
                becomeWriterUnlessAnotherIs();
                commit(SchemasTopicLayout.configKey(subject), SchemasTopicLayout.configValue(level));
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
                commit(SchemasTopicLayout.writerKey(), null);
            } catch (Fenced | SchemaRegistryException e) {
                LOG.debug("Schema registry {} could not withdraw as writer: {}", ownUrl, e.toString());
            }
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
        }
        reader.close();
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
        Writer self = new Writer(instance, ownUrl);
        commit(SchemasTopicLayout.writerKey(), SchemasTopicLayout.writerValue(self));
        announced = self;
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
    private void commit(String key, String value) {
        try {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), key, value));
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

    private static SchemaRegistryException storeError(Exception e) {
        return new SchemaRegistryException(500, SchemaRegistryException.STORE_ERROR,
                "Error while writing to the schemas topic: " + e);
    }

    private void applyWriter(Writer writer) {
        announced = writer;
        // Only a registry that initialised after this one's takeover can have committed this: this one is fenced.
        if (producer != null && announced != null && !announced.instance().equals(instance)) {
            LOG.info("Schema registry {} hands the writer's role to {}", ownUrl, announced.url());
            dropWriterRole();
        }
    }

    private void catchUp() {
        catchUps++;
        reader.catchUp();
    }

    /** How many times this store has read the topic to its end, for tests. */
    synchronized int catchUps() {
        return catchUps;
    }

    private void catchUpUntil(BooleanSupplier done, Duration timeout) {
        reader.catchUpUntil(done, timeout);
    }

    /** This registry is no longer the writer: another one initialised the same transactional id. */
    private static final class Fenced extends RuntimeException {
        Fenced() {
            super(null, null, false, false);
        }
    }
}
