package io.agentoutcomes.app.http.health;

import io.agentoutcomes.app.kafka.StreamsProgress;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Liveness apart from readiness, and readiness apart from complete answers.
 * <ul>
 * <li>Live: the process can still do its work, which includes starting, rebalancing and restoring; a restart would not
 * help it.</li>
 * <li>Ready: Kafka Streams has taken its first assignment (it has been RUNNING since it started), is RUNNING or
 * rebalancing again, and no active store is being restored. A rebalance after the first does not stop the tasks an
 * instance keeps (the cooperative protocol), and the keys of those tasks answer throughout, so an instance stays ready
 * through it: a second rebalance after a crash (the dead instance's two stream threads are two group members, whose
 * sessions can expire one after the other) does not hold readiness back.</li>
 * <li>Complete: RUNNING with no store restoring, so a query over every partition of a store (analytics, providers,
 * budgets) finds each partition at its owner; while partitions move, such a query answers 503.</li>
 * </ul>
 */
public record StreamsHealth(KafkaStreams.State state, int restoring, boolean hasRun) {
    public static StreamsHealth of(KafkaStreams streams, StreamsProgress progress) {
        return new StreamsHealth(streams == null ? null : streams.state(), progress == null ? 0 : progress.restoring(),
                progress != null && progress.hasRun());
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

    /** Why this instance should not be routed to now (a readiness probe's 503), or null when it should. */
    public String whyNotReady() {
        boolean serving = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING && hasRun;
        if (!serving) {
            return "Kafka Streams is " + stateName() + (state == KafkaStreams.State.REBALANCING
                    ? ", taking its first assignment" : ", not RUNNING");
        }
        return whyRestoring();
    }

    /** Why a query over every partition of a store cannot be answered completely now, or null when it can. */
    public String whyIncomplete() {
        if (state != KafkaStreams.State.RUNNING) {
            return "Kafka Streams is " + stateName() + ", not RUNNING";
        }
        return whyRestoring();
    }

    private String whyRestoring() {
        return restoring > 0 ? restoring + " store partitions are being restored" : null;
    }
}
