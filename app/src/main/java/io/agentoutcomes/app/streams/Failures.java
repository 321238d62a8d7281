package io.agentoutcomes.app.streams;

import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryUnavailableException;

/** What kind of failure an exception is: one of the record, or one of the world around it that will pass. */
final class Failures {
    private Failures() {
    }

    /**
     * Whether the exception, or one of its causes, is the schema registry being unreachable or failing (a 5xx):
     * the record is not at fault, so it must be processed again once the registry is back, never rejected.
     */
    static boolean isRegistryOutage(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SchemaRegistryUnavailableException
                    || cause instanceof SchemaRegistryException registry && registry.status() >= 500) {
                return true;
            }
        }
        return false;
    }
}
