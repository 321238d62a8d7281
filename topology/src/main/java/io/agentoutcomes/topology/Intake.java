package io.agentoutcomes.topology;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.NodeFinished;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;

/**
 * The pipeline's Avro input streams, decoded through the schema registry. Each source topic is read once here and
 * every later stage builds on these streams. A record that cannot be decoded (not the Confluent wire format, an
 * unknown schema id, corrupt Avro) never reaches them: Kafka Streams' deserialization handler sends it, with
 * headers saying why, to {@code rejected-input} (see the service's streams configuration).
 */
public record Intake(
        KStream<String, AgentResult> agentResults,
        KStream<String, NodeFinished> nodeFinished,
        KStream<String, ContinuationEvaluated> continuationEvents) {

    /** Adds the input streams to the builder. */
    public static Intake build(StreamsBuilder builder, Topics topics) {
        return new Intake(
                builder.stream(topics.agentResults.name(), topics.agentResults.consumed()),
                builder.stream(topics.nodeFinished.name(), topics.nodeFinished.consumed()),
                builder.stream(topics.continuationEvents.name(), topics.continuationEvents.consumed()));
    }
}
