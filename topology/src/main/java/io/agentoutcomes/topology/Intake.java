package io.agentoutcomes.topology;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.ingest.InputBounds;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The pipeline's Avro input streams, decoded through the schema registry. Each source topic is read once here and
 * every later stage builds on these streams. A record that cannot be decoded (not the Confluent wire format, an
 * unknown schema id, corrupt Avro) or is out of the input's bounds (a key, value or headers too long; a value outside
 * {@link InputBounds}, which JSON input is held to as well) never reaches them: Kafka Streams' deserialization handler
 * sends it, with headers saying why, to {@code rejected-input} (see the service's streams configuration). A record
 * taken goes on with its headers scrubbed of credentials and stamped with where it was read, its timestamp no further
 * ahead of the wall clock than {@link InputLimits#maxClockSkew()} ({@link AcceptInput}).
 * <p>
 * The stages keep state per task and per job, so a task's records must all reach one partition: agent results are
 * keyed by task id, node events by job id. Keys are not trusted: a record keyed otherwise (or not at all) is re-keyed
 * through a repartition topic ({@code <application.id>-<topic>-by-key-repartition}), which costs one more write and
 * read for such records only; records keyed as they should be go straight on.
 */
public record Intake(
        KStream<String, AgentResult> agentResults,
        KStream<String, NodeFinished> nodeFinished,
        KStream<String, ContinuationEvaluated> continuationEvents) {

    /** Adds the input streams to the builder; records out of bounds are refused as they are read. */
    public static Intake build(StreamsBuilder builder, Topics topics, InputLimits limits) {
        return new Intake(
                keyedBy(accepted(builder, topics.agentResults, limits, InputBounds::check, TopicNames.AGENT_RESULTS),
                        AgentResult::getTaskId, topics.agentResults, TopicNames.AGENT_RESULTS),
                keyedBy(accepted(builder, topics.nodeFinished, limits, InputBounds::check, TopicNames.NODE_FINISHED),
                        NodeFinished::getJobId, topics.nodeFinished, TopicNames.NODE_FINISHED),
                accepted(builder, topics.continuationEvents, limits, InputBounds::check, TopicNames.CONTINUATION_EVENTS));
    }

    /** The topic's records within bounds, their headers as the pipeline carries them on. */
    private static <V> KStream<String, V> accepted(StreamsBuilder builder, Topics.Topic<String, V> topic, InputLimits limits,
                                                   Consumer<V> bounds, String name) {
        Consumed<String, V> consumed = Consumed.with(
                Serdes.serdeFrom(topic.keySerde().serializer(), BoundedDeserializer.keys(topic.keySerde().deserializer())),
                Serdes.serdeFrom(topic.valueSerde().serializer(),
                        BoundedDeserializer.values(topic.valueSerde().deserializer(), limits, bounds)));
        return builder.stream(topic.name(), consumed).processValues(() -> new AcceptInput<>(limits, topic.name()),
                Named.as(name + "-accept"));
    }

    /** The stream with every record keyed by {@code keyOf} of its value, re-keying through a repartition topic where not. */
    private static <V> KStream<String, V> keyedBy(KStream<String, V> input, Function<V, String> keyOf,
                                                  Topics.Topic<String, V> topic, String name) {
        Keyed<V> keyed = new Keyed<>();
        input.split(Named.as(name + "-key-"))
                .branch((key, value) -> value == null || Objects.equals(key, keyOf.apply(value)),
                        Branched.withConsumer(asExpected -> keyed.asExpected = asExpected, "as-expected"))
                .defaultBranch(Branched.withConsumer(other -> keyed.rekeyed = other
                        .selectKey((key, value) -> keyOf.apply(value), Named.as(name + "-rekey"))
                        .repartition(Repartitioned.with(Serdes.String(), topic.valueSerde()).withName(name + "-by-key")),
                        "other"));
        return keyed.asExpected.merge(keyed.rekeyed, Named.as(name + "-keyed"));
    }

    /** The two branches of {@link #keyedBy}, as their consumers receive them. */
    private static final class Keyed<V> {
        KStream<String, V> asExpected;
        KStream<String, V> rekeyed;
    }
}
