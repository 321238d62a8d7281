package io.agentoutcomes.app.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Kafka Streams' client metrics on the registry, bound when the instance first reaches RUNNING (its task metrics
 * exist from then on, and the binder looks for later ones only once a minute). Called by the stream thread that
 * makes the transition; once closed it binds nothing, so a RUNNING reached while the service shuts down cannot
 * throw into that thread (a closed binder refuses to schedule, which used to end the instance as a fatal error and
 * leave its last transaction uncommitted).
 */
public final class StreamsMetricsBinding implements AutoCloseable {
    private final KafkaStreamsMetrics binder;
    private final MeterRegistry registry;
    private boolean bound;
    private boolean closed;

    public StreamsMetricsBinding(KafkaStreams streams, MeterRegistry registry) {
        this.binder = new KafkaStreamsMetrics(streams);
        this.registry = registry;
    }

    /** To be called on every state change ({@link KafkaStreams.StateListener}): binds on the first RUNNING. */
    public synchronized void onChange(KafkaStreams.State newState) {
        if (newState == KafkaStreams.State.RUNNING && !bound && !closed) {
            binder.bindTo(registry);
            bound = true;
        }
    }

    public synchronized boolean bound() {
        return bound;
    }

    /** Stops the binder; later state changes bind nothing. Waits for a binding under way. */
    @Override
    public synchronized void close() {
        closed = true;
        binder.close();
    }
}
