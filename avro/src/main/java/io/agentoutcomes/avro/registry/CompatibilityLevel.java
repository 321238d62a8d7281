package io.agentoutcomes.avro.registry;

import java.util.Locale;

/** Schema Registry compatibility levels, with the names and meaning Confluent's registry gives them. */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    /** The new schema must read data written by the earlier ones. */
    final boolean newReadsOld;
    /** The earlier schemas must read data written by the new one. */
    final boolean oldReadsNew;
    /** Checked against every earlier version, not only the latest. */
    final boolean transitive;

    CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
        this.newReadsOld = newReadsOld;
        this.oldReadsNew = oldReadsNew;
        this.transitive = transitive;
    }

    /** Parses a level name case-insensitively; throws {@link SchemaRegistryException} 42203 for an unknown one. */
    public static CompatibilityLevel parse(String name) {
        if (name != null) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ignored) {
                // fall through to the registry's own error
            }
        }
        throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_COMPATIBILITY_LEVEL,
                "Invalid compatibility level: " + name);
    }
}
