package io.agentoutcomes.client;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes what agents and workflow runners report to the pipeline: canonical Avro (through the schema registry,
 * Confluent wire format) to {@code agent-results}, {@code node-finished} and {@code continuation-events}, or JSON in
 * any input dialect to the {@code -json} topics. Every record is keyed as the pipeline keeps its state (agent results
 * by task id, node events by job id, continuation events by agent id) and carries the identity headers.
 * <p>
 * Settings are those of a Kafka producer plus {@code schema.registry.url} (and the registry's auth settings) and
 * {@code topic.prefix}. The producer is idempotent with {@code acks=all} unless the settings say otherwise, so a
 * producer retry never writes a record twice; the result id keeps a re-sent attempt from counting twice downstream.
 * Thread-safe, like the Kafka producer it wraps.
 */
public final class OutcomePublisher implements AutoCloseable {
    /** The prefix of the pipeline's topic names, if it runs with one. */
    public static final String TOPIC_PREFIX = "topic.prefix";

    private final KafkaProducer<String, byte[]> producer;
    private final PipelineTopics topics;
    private final Map<String, ?> serdeConfig;
    /** Null without a schema registry: then only JSON can be sent. */
    private final Serializer<AgentResult> results;
    private final Serializer<NodeFinished> nodes;
    private final Serializer<ContinuationEvaluated> continuations;

    private OutcomePublisher(Map<String, ?> settings) {
        Map<String, Object> producerConfig = new HashMap<>(settings);
        Object prefix = producerConfig.remove(TOPIC_PREFIX);
        this.topics = new PipelineTopics(prefix == null ? "" : prefix.toString());
        producerConfig.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        // the serde's settings are not the producer's: keep them out of its config, so it does not warn about them
        producerConfig.keySet().removeIf(k -> k.startsWith("schema.registry.") || k.startsWith("basic.auth.") || k.startsWith("bearer.auth.")
                || k.equals(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS) || k.equals(AvroSerdeConfig.USE_LATEST_VERSION)
                || k.equals(AvroSerdeConfig.LATEST_CACHE_TTL_SEC) || k.equals(AvroSerdeConfig.SPECIFIC_AVRO_READER));
        this.serdeConfig = Map.copyOf(settings);
        boolean avro = settings.get(AvroSerdeConfig.SCHEMA_REGISTRY_URL) != null;
        this.results = avro ? serializer(AgentResult.class) : null;
        this.nodes = avro ? serializer(NodeFinished.class) : null;
        this.continuations = avro ? serializer(ContinuationEvaluated.class) : null;
        this.producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new ByteArraySerializer());
    }

    /** A publisher with these settings: {@code bootstrap.servers}, and {@code schema.registry.url} to send Avro. */
    public static OutcomePublisher create(Map<String, ?> settings) {
        return new OutcomePublisher(settings);
    }

    public PipelineTopics topics() {
        return topics;
    }

    /** Sends an agent result as Avro to {@code agent-results}, keyed by its task id. */
    public Future<RecordMetadata> publish(AgentResult result) {
        return publish(result, null);
    }

    /**
     * Sends the result of a re-run of {@code rerunOf}: as {@link #publish(AgentResult)}, and when an operator redrove
     * the task from {@code dead-letter}, with the redrive's id, which tells the pipeline to give it a fresh attempt budget.
     */
    public Future<RecordMetadata> publish(AgentResult result, DueRetry rerunOf) {
        requireRegistry();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.agentResults(), result.getTaskId(),
                results.serialize(topics.agentResults(), result));
        IdentityHeaders.put(record.headers(), HeaderNames.AGENT_ID, result.getAgentId());
        IdentityHeaders.put(record.headers(), HeaderNames.TASK_ID, result.getTaskId());
        IdentityHeaders.put(record.headers(), HeaderNames.JOB_ID, result.getJobId());
        IdentityHeaders.put(record.headers(), HeaderNames.NODE_ID, result.getNodeId());
        IdentityHeaders.put(record.headers(), HeaderNames.ATTEMPT, result.getAttempt());
        IdentityHeaders.put(record.headers(), HeaderNames.RESULT_ID, result.getResultId());
        return producer.send(redriven(record, rerunOf));
    }

    /** Sends a {@code node_finished} event as Avro to {@code node-finished}, keyed by its job id. */
    public Future<RecordMetadata> publish(NodeFinished event) {
        return publish(event, null);
    }

    /** Sends the event of a re-run of {@code rerunOf}, as {@link #publish(AgentResult, DueRetry)} does a result. */
    public Future<RecordMetadata> publish(NodeFinished event, DueRetry rerunOf) {
        requireRegistry();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.nodeFinished(), event.getJobId(),
                nodes.serialize(topics.nodeFinished(), event));
        IdentityHeaders.put(record.headers(), HeaderNames.JOB_ID, event.getJobId());
        IdentityHeaders.put(record.headers(), HeaderNames.NODE_ID, event.getNodeId());
        IdentityHeaders.put(record.headers(), HeaderNames.ATTEMPT, event.getAttempt());
        return producer.send(redriven(record, rerunOf));
    }

    private static ProducerRecord<String, byte[]> redriven(ProducerRecord<String, byte[]> record, DueRetry rerunOf) {
        if (rerunOf != null && rerunOf.redriven()) {
            IdentityHeaders.put(record.headers(), HeaderNames.REDRIVE_ID, rerunOf.redriveId());
        }
        return record;
    }

    /** Sends a continuation event as Avro to {@code continuation-events}, keyed by its agent id. */
    public Future<RecordMetadata> publish(ContinuationEvaluated event) {
        requireRegistry();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.continuationEvents(), event.getAgentId(),
                continuations.serialize(topics.continuationEvents(), event));
        IdentityHeaders.put(record.headers(), HeaderNames.AGENT_ID, event.getAgentId());
        return producer.send(record);
    }

    /** Sends JSON in any input dialect to the JSON topic of its kind, with its key and headers. */
    public Future<RecordMetadata> publish(JsonRecord json) {
        String topic = switch (json.kind()) {
            case AGENT_RESULT -> topics.agentResultsJson();
            case NODE_FINISHED -> topics.nodeFinishedJson();
            case CONTINUATION_EVENT -> topics.continuationEventsJson();
        };
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, json.key(),
                json.json().getBytes(StandardCharsets.UTF_8));
        json.headers().forEach((name, value) -> IdentityHeaders.put(record.headers(), name, value));
        return producer.send(record);
    }

    /** Waits until everything sent so far is acknowledged. */
    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }

    private void requireRegistry() {
        if (results == null) {
            throw new IllegalStateException("Avro needs a schema registry: set " + AvroSerdeConfig.SCHEMA_REGISTRY_URL
                    + ", or publish JSON");
        }
    }

    private <T extends SpecificRecord> Serializer<T> serializer(Class<T> type) {
        return AvroSerde.specific(type).configured(serdeConfig, false).serializer();
    }
}
