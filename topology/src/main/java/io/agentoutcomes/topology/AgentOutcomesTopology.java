package io.agentoutcomes.topology;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;

/**
 * The whole pipeline: each stage adds its topology onto one {@link StreamsBuilder}. Stages live in classes of
 * their own; this class only puts them together. Today the pipeline is its {@link Intake}: the Avro input topics
 * read and decoded, undecodable records sent to {@code rejected-input}.
 */
public final class AgentOutcomesTopology {
    private AgentOutcomesTopology() {
    }

    /** Builds the pipeline's topology over the given topics. */
    public static Topology build(Topics topics) {
        StreamsBuilder builder = new StreamsBuilder();
        Intake.build(builder, topics);
        return builder.build();
    }
}
