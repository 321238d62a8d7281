package io.agentoutcomes.topology.intake;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * What a stage does to each accepted input record inside the intake node ({@link AcceptInput}) rather than in a node
 * of its own: each node a record passes costs Kafka Streams a forward, a copy of the record's context and its
 * metrics. The stage's logic stays in its package; the step only calls it. One instance per processor.
 *
 * @param <V> the input's value
 */
interface IntakeStep<V> {
    /** Registers what the step needs of its processor (sensors). */
    default void init(ProcessingContext context) {
    }

    /**
     * The value the record goes on with: the same instance when unchanged (null stays null).
     *
     * @param headers   the record's accepted headers
     * @param timestamp the record's accepted timestamp
     */
    V apply(V value, Headers headers, long timestamp);

    /** No step: the value goes on as accepted. */
    static <V> IntakeStep<V> none() {
        return (value, headers, timestamp) -> value;
    }
}
