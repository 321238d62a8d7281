package io.agentoutcomes.app.registry;

import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryState;

/** Where the embedded registry keeps its schemas: the rules of {@link SchemaRegistryState}, made durable. */
public interface SchemaStore extends AutoCloseable {

    /** The current state, for reads. */
    SchemaRegistryState state();

    /** Registers a schema, durably when it is new; answers the version it has under the subject. */
    RegisteredSchema register(String subject, String schemaText);

    /** Sets the compatibility level of a subject, or the global one for a null subject, durably. */
    void setCompatibility(String subject, CompatibilityLevel level);

    /** Catches up with changes other writers made, if the store can have any; called before a read misses. */
    default void refresh() {
    }

    @Override
    default void close() {
    }
}
