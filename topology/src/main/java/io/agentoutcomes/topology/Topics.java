package io.agentoutcomes.topology;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.serde.AvroSerde;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The typed registry of the pipeline's topics: each one's name (with the configured prefix), its key and value
 * serdes, and whether it is compacted. Topologies take topics from here and never spell a name or pick a serde.
 */
public final class Topics {

    /** How a topic's old records go: deleted by retention, or compacted to the latest per key. */
    public enum Cleanup { DELETE, COMPACT }

    /** One topic: its name, serdes, cleanup policy, and the Avro schema of its values if they are Avro. */
    public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, Cleanup cleanup,
                              Optional<Schema> valueSchema) {
        public Consumed<K, V> consumed() {
            return Consumed.with(keySerde, valueSerde);
        }

        public Produced<K, V> produced() {
            return Produced.with(keySerde, valueSerde);
        }
    }

    public static final String AGENT_RESULTS = "agent-results";
    public static final String AGENT_RESULTS_JSON = "agent-results-json";
    public static final String NODE_FINISHED = "node-finished";
    public static final String NODE_FINISHED_JSON = "node-finished-json";
    public static final String CONTINUATION_EVENTS = "continuation-events";
    public static final String CONTINUATION_EVENTS_JSON = "continuation-events-json";
    public static final String REJECTED_INPUT = "rejected-input";

    public final Topic<String, AgentResult> agentResults;
    public final Topic<byte[], byte[]> agentResultsJson;
    public final Topic<String, NodeFinished> nodeFinished;
    public final Topic<byte[], byte[]> nodeFinishedJson;
    public final Topic<String, ContinuationEvaluated> continuationEvents;
    public final Topic<byte[], byte[]> continuationEventsJson;
    public final Topic<byte[], byte[]> rejectedInput;

    /**
     * @param prefix      prepended to every topic name
     * @param serdeConfig the Avro serde's settings ({@code schema.registry.url} and the like)
     */
    public Topics(String prefix, Map<String, ?> serdeConfig) {
        agentResults = avro(prefix + AGENT_RESULTS, AgentResult.class, serdeConfig);
        agentResultsJson = json(prefix + AGENT_RESULTS_JSON);
        nodeFinished = avro(prefix + NODE_FINISHED, NodeFinished.class, serdeConfig);
        nodeFinishedJson = json(prefix + NODE_FINISHED_JSON);
        continuationEvents = avro(prefix + CONTINUATION_EVENTS, ContinuationEvaluated.class, serdeConfig);
        continuationEventsJson = json(prefix + CONTINUATION_EVENTS_JSON);
        rejectedInput = new Topic<>(prefix + REJECTED_INPUT, Serdes.ByteArray(), Serdes.ByteArray(), Cleanup.DELETE,
                Optional.empty());
    }

    /** Every topic, for creating them at start. */
    public List<Topic<?, ?>> all() {
        return List.of(agentResults, agentResultsJson, nodeFinished, nodeFinishedJson, continuationEvents,
                continuationEventsJson, rejectedInput);
    }

    private static <V extends SpecificRecord> Topic<String, V> avro(String name, Class<V> type, Map<String, ?> serdeConfig) {
        return new Topic<>(name, Serdes.String(), AvroSerde.specific(type).configured(serdeConfig, false), Cleanup.DELETE,
                Optional.of(SpecificData.get().getSchema(type)));
    }

    /** JSON topics are read as bytes: a record that cannot be read is passed on exactly as it came. */
    private static Topic<byte[], byte[]> json(String name) {
        return new Topic<>(name, Serdes.ByteArray(), Serdes.ByteArray(), Cleanup.DELETE, Optional.empty());
    }
}
