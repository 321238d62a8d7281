package io.agentoutcomes.app.registry;

import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Where the embedded registry keeps its schemas: the rules of {@link SchemaRegistryState}, made durable. A store
 * shared by several registries has one writer; the writes of the others throw {@link NotTheWriterException}.
 */
public interface SchemaStore extends AutoCloseable {

    /**
     * Called once, when the registry listens, with the URL other registries reach it at. A shared store makes this
     * registry its writer here.
     */
    default void open(String advertisedUrl) {
    }

    /** The current state, for reads. */
    SchemaRegistryState state();

    /**
     * Registers a schema, durably when it is new; answers the version it has under the subject.
     *
     * @throws NotTheWriterException when the schema is new and another registry is the writer
     */
    RegisteredSchema register(String subject, String schemaText);

    /**
     * Sets the compatibility level of a subject, or the global one for a null subject, durably.
     *
     * @throws NotTheWriterException when another registry is the writer
     */
    void setCompatibility(String subject, CompatibilityLevel level);

    /** Catches up with changes other writers made, if the store can have any; called before a read misses. */
    default void refresh() {
    }

    /** Catches up until {@code done} holds or the timeout passes: a write the writer answered may still be on its way. */
    default void refreshUntil(BooleanSupplier done, Duration timeout) {
        refresh();
    }

    /** The writer at this URL did not answer: unless another registry has replaced it already, this one does. */
    default void writerUnreachable(String writerUrl) {
    }

    @Override
    default void close() {
    }
}
