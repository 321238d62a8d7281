package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.Topics;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * JSON in, canonical Avro out: {@code agent-results-json} (any seed dialect) to {@code agent-results},
 * {@code node-finished-json} to {@code node-finished}, {@code continuation-events-json} to
 * {@code continuation-events}; a value wrapped in a CloudEvent, structured or binary, is unwrapped first
 * ({@link CloudEvents}). A record that cannot be normalized goes to {@code rejected-input} with its original
 * key, value and headers, credentials replaced and long header values cut ({@link RejectedInput}), plus headers
 * saying why; it is counted, and the next record
 * is processed as usual.
 */
public final class IngestTopology {
    private IngestTopology() {
    }

    /** Turns one JSON object into a canonical record; throws {@link InvalidInputException} for bad input. */
    @FunctionalInterface
    public interface Normalizer<V> {
        V normalize(JsonNode json, RecordContext context);
    }

    /** What became of one input record. */
    sealed interface Ingested<V> {
        record Normalized<V>(String key, V value) implements Ingested<V> {
        }

        record Rejected<V>(byte[] value) implements Ingested<V> {
        }
    }

    public static void build(StreamsBuilder builder, Topics topics) {
        build(builder, topics, InputLimits.defaults());
    }

    /** As above; a JSON value longer than the limit is rejected ({@code too-large}) without its value. */
    public static void build(StreamsBuilder builder, Topics topics, InputLimits limits) {
        ingest(builder, topics.agentResultsJson, topics.agentResults, topics.rejectedInput,
                AgentResultNormalizer::normalize, AgentResult::getTaskId, InputBounds::check, limits);
        ingest(builder, topics.nodeFinishedJson, topics.nodeFinished, topics.rejectedInput,
                NodeFinishedNormalizer::normalize, NodeFinished::getJobId, InputBounds::check, limits);
        ingest(builder, topics.continuationEventsJson, topics.continuationEvents, topics.rejectedInput,
                ContinuationEventNormalizer::normalize, ContinuationEvaluated::getAgentId, InputBounds::check, limits);
    }

    private static <V> void ingest(StreamsBuilder builder, Topics.Topic<byte[], byte[]> from, Topics.Topic<String, V> to,
                                   Topics.Topic<byte[], byte[]> rejected, Normalizer<V> normalizer, Function<V, String> keyOf,
                                   Consumer<V> bounds, InputLimits limits) {
        KStream<byte[], Ingested<V>> ingested = builder
                .stream(from.name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("read-" + from.name()))
                .process(() -> new NormalizeProcessor<>(normalizer, keyOf, bounds, limits.maxRecordBytes()), Named.as("normalize-" + from.name()));
        Map<String, KStream<byte[], Ingested<V>>> branches = ingested.split(Named.as("ingest-" + from.name() + "-"))
                .branch((key, value) -> value instanceof Ingested.Normalized<V>, Branched.as("normalized"))
                .defaultBranch(Branched.as("rejected"));
        branches.get("ingest-" + from.name() + "-normalized")
                .map((key, value) -> {
                    Ingested.Normalized<V> normalized = (Ingested.Normalized<V>) value;
                    return KeyValue.pair(normalized.key(), normalized.value());
                }, Named.as("canonical-" + from.name()))
                .to(to.name(), to.produced().withName("write-" + to.name() + "-from-" + from.name()));
        branches.get("ingest-" + from.name() + "-rejected")
                .mapValues(value -> ((Ingested.Rejected<V>) value).value(), Named.as("rejected-value-" + from.name()))
                .to(rejected.name(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("reject-" + from.name()));
    }

}
