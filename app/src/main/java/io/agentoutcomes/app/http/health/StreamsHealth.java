package io.agentoutcomes.app.http.health;

import io.agentoutcomes.app.kafka.RestoreTracker;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Liveness apart from readiness. Live: the process can still do its work, which includes starting, rebalancing and
 * restoring; a restart would not help it. Ready: Kafka Streams is RUNNING with every active store restored, so its
 * queries answer completely; a rebalance makes an instance unready for a while, not dead.
 */
public record StreamsHealth(KafkaStreams.State state, int restoring) {
    public static StreamsHealth of(KafkaStreams streams, RestoreTracker restores) {
        return new StreamsHealth(streams == null ? null : streams.state(), restores == null ? 0 : restores.restoring());
    }

    public String stateName() {
        return state == null ? "NOT_STARTED" : state.name();
    }

    public boolean live() {
        return state == null || switch (state) {
            case CREATED, REBALANCING, RUNNING -> true;
            case PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR -> false;
        };
    }

    /** Why queries cannot be answered completely now, or null when they can. */
    public String whyNotReady() {
        if (state != KafkaStreams.State.RUNNING) {
            return "Kafka Streams is " + stateName() + ", not RUNNING";
        }
        if (restoring > 0) {
            return restoring + " store partitions are being restored";
        }
        return null;
    }
}
