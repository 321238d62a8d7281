package io.agentoutcomes.topology;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;

/**
 * The whole pipeline: each stage adds its topology onto one {@link StreamsBuilder}. Stages come with their own
 * classes (ingestion, classification and retries, replay, analytics); this class only puts them together.
 */
public final class AgentOutcomesTopology {
    private AgentOutcomesTopology() {
    }

    /** Builds the pipeline's topology over the given topics. */
    public static Topology build(Topics topics) {
        StreamsBuilder builder = new StreamsBuilder();
        return builder.build();
    }
}
