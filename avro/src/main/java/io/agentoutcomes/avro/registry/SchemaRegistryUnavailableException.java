package io.agentoutcomes.avro.registry;

import org.apache.kafka.common.errors.SerializationException;

/** The schema registry could not be reached, or kept failing, for every attempt the client was allowed. */
public class SchemaRegistryUnavailableException extends SerializationException {
    public SchemaRegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
