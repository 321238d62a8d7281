package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.topology.topic.Topics;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * JSON in, canonical Avro out: {@code agent-results-json} (any seed dialect) to {@code agent-results},
 * {@code node-finished-json} to {@code node-finished}, {@code continuation-events-json} to
 * {@code continuation-events}; OTLP spans (the Collector's {@code otlp_spans}, either encoding) to {@code agent-results}
 * ({@link OtlpSpansProcessor}); a value wrapped in a CloudEvent, structured or binary, is unwrapped first
 * ({@link CloudEvents}). A record that cannot be normalized goes to {@code rejected-input} with its original
 * key, value and headers, credentials replaced and long header values cut ({@link RejectedInput}), plus headers
 * saying why; it is counted, and the next record
 * is processed as usual.
 */
public final class IngestTopology {
    private IngestTopology() {
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

    /**
     * OTLP spans to canonical results, any number per request ({@link OtlpSpansProcessor}). Stateless, and built after
     * every other stage: Kafka Streams numbers sub-topologies in the order they are added and names a task's state
     * directory by that number, so a sub-topology added among the others would renumber (and wipe) their state.
     */
    public static void buildOtlp(StreamsBuilder builder, Topics topics, InputLimits limits) {
        ingestOtlp(builder, topics.otlpSpans, topics.agentResults, topics.rejectedInput, limits);
    }

    private static void ingestOtlp(StreamsBuilder builder, Topics.Topic<byte[], byte[]> from, Topics.Topic<String, AgentResult> to,
                                   Topics.Topic<byte[], byte[]> rejected, InputLimits limits) {
        String written = "write-" + to.name() + "-from-" + from.name();
        String refused = "reject-" + from.name();
        KStream<Object, Object> results = builder
                .stream(from.name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("read-" + from.name()))
                .process(() -> new OtlpSpansProcessor(limits, from.name(), written, refused), Named.as("normalize-" + from.name()));
        results.to(to.name(), sink(to.keySerde(), to.valueSerde(), written));
        results.to(rejected.name(), sink(Serdes.ByteArray(), Serdes.ByteArray(), refused));
    }

    private static <V> void ingest(StreamsBuilder builder, Topics.Topic<byte[], byte[]> from, Topics.Topic<String, V> to,
                                   Topics.Topic<byte[], byte[]> rejected, Normalizer<V> normalizer, Function<V, String> keyOf,
                                   Consumer<V> bounds, InputLimits limits) {
        String written = "write-" + to.name() + "-from-" + from.name();
        String refused = "reject-" + from.name();
        KStream<Object, Object> normalized = builder
                .stream(from.name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("read-" + from.name()))
                .process(() -> new NormalizeProcessor<>(normalizer, keyOf, bounds, limits, from.name(), written, refused),
                        Named.as("normalize-" + from.name()));
        normalized.to(to.name(), sink(to.keySerde(), to.valueSerde(), written));
        normalized.to(rejected.name(), sink(Serdes.ByteArray(), Serdes.ByteArray(), refused));
    }

    /** A sink of the normalizer's, named so that it forwards each record to one of them alone. */
    @SuppressWarnings("unchecked")
    private static Produced<Object, Object> sink(Serde<?> keySerde, Serde<?> valueSerde, String name) {
        return Produced.with((Serde<Object>) keySerde, (Serde<Object>) valueSerde).withName(name);
    }

}
