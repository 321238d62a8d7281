package io.agentoutcomes.topology.intake;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.ingest.InputBounds;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.topic.Topics;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
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
 * ahead of the wall clock than {@link InputLimits#maxClockSkew()} ({@link AcceptInput}); an agent result attributed and
 * priced in the same node ({@link PrepareAgentResults}).
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

    /** The agent results' one node of intake, attribution and pricing (a name the bench's stage table knows). */
    static final String AGENT_RESULTS_NODE = TopicNames.AGENT_RESULTS + "-accept-attribute-price";

    /** Adds the input streams to the builder; records out of bounds are refused as they are read; agent results
     * attributed and priced with {@code pricing} in the node that accepts them. */
    public static Intake build(StreamsBuilder builder, Topics topics, InputLimits limits,
                               PricingSettings pricing) {
        Supplier<IntakeStep<AgentResult>> agentResults = () -> new PrepareAgentResults(pricing);
        return new Intake(
                keyed(builder, topics.agentResults, limits, InputBounds::check, AgentResult::getTaskId, agentResults,
                        TopicNames.AGENT_RESULTS, AGENT_RESULTS_NODE),
                keyed(builder, topics.nodeFinished, limits, InputBounds::check, NodeFinished::getJobId, null,
                        TopicNames.NODE_FINISHED, TopicNames.NODE_FINISHED + "-accept"),
                source(builder, topics.continuationEvents, limits, InputBounds::check).processValues(
                        () -> new AcceptInput<>(limits, topics.continuationEvents.name()),
                        Named.as(TopicNames.CONTINUATION_EVENTS + "-accept")));
    }

    /** The topic's records within bounds, as decoded. */
    private static <V> KStream<String, V> source(StreamsBuilder builder, Topics.Topic<String, V> topic, InputLimits limits,
                                                 Consumer<V> bounds) {
        Consumed<String, V> consumed = Consumed.with(
                Serdes.serdeFrom(topic.keySerde().serializer(), BoundedDeserializer.keys(topic.keySerde().deserializer())),
                Serdes.serdeFrom(topic.valueSerde().serializer(),
                        BoundedDeserializer.values(topic.valueSerde().deserializer(), limits, bounds)));
        return builder.stream(topic.name(), consumed);
    }

    /**
     * The topic's records accepted, every one keyed by {@code keyOf} of its value, through {@code step} (null: none):
     * those keyed so in the accepting node itself, the others re-keyed through a repartition topic and then stepped.
     */
    private static <V> KStream<String, V> keyed(StreamsBuilder builder, Topics.Topic<String, V> topic, InputLimits limits,
                                                Consumer<V> bounds, Function<V, String> keyOf,
                                                Supplier<IntakeStep<V>> step, String name, String acceptName) {
        // the merge with those re-keyed, which records keyed as they should be reach from the accepting node
        String keyedName = name + "-keyed";
        // the node that re-keys the others on their way to the repartition topic
        String rekeyName = name + "-rekey";
        KStream<String, V> accepted = source(builder, topic, limits, bounds).processValues(
                () -> new AcceptInput<>(limits, topic.name(), keyOf, step == null ? IntakeStep.none() : step.get(),
                        keyedName, rekeyName),
                Named.as(acceptName));
        KStream<String, V> rekeyed = accepted
                .selectKey((key, value) -> keyOf.apply(value), Named.as(rekeyName))
                .repartition(Repartitioned.with(Serdes.String(), topic.valueSerde()).withName(name + "-by-key"));
        if (step != null) {
            rekeyed = rekeyed.processValues(() -> new RekeyedStep<>(step.get()), Named.as(name + "-rekeyed-step"));
        }
        return accepted.merge(rekeyed, Named.as(keyedName));
    }
}
