package io.agentoutcomes.avro.serde;

import org.apache.kafka.common.errors.SerializationException;

/** A record whose schema id the schema registry does not know: written against another registry, or deleted. */
public class UnknownSchemaIdException extends SerializationException {
    private final int schemaId;

    public UnknownSchemaIdException(int schemaId, String topic, String registry, Throwable cause) {
        super("Schema id " + schemaId + " of a record from topic '" + topic + "' is not known to the schema registry at "
                + registry + ": the record was written against another registry, or its schema was deleted", cause);
        this.schemaId = schemaId;
    }

    public int schemaId() {
        return schemaId;
    }
}
