package io.agentoutcomes.avro.registry;

import org.apache.kafka.common.errors.SerializationException;

/**
 * An error answered by a schema registry, with Confluent's HTTP status and {@code error_code}.
 * Extends Kafka's {@link SerializationException} so a serde failure surfaces the registry's reason.
 */
public class SchemaRegistryException extends SerializationException {
    public static final int SUBJECT_NOT_FOUND = 40401;
    public static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;
    public static final int SUBJECT_COMPATIBILITY_NOT_CONFIGURED = 40408;
    public static final int INCOMPATIBLE_SCHEMA = 409;
    public static final int INVALID_SCHEMA = 42201;
    public static final int INVALID_VERSION = 42202;
    public static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    public static final int STORE_ERROR = 50001;

    private final int status;
    private final int errorCode;

    public SchemaRegistryException(int status, int errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** The HTTP status the registry answers with. */
    public int status() {
        return status;
    }

    /** Confluent's {@code error_code}, e.g. 40403 for an unknown schema id. */
    public int errorCode() {
        return errorCode;
    }

    static SchemaRegistryException subjectNotFound(String subject) {
        return new SchemaRegistryException(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static SchemaRegistryException versionNotFound(String subject, String version) {
        return new SchemaRegistryException(404, VERSION_NOT_FOUND,
                "Version " + version + " not found for subject '" + subject + "'.");
    }

    static SchemaRegistryException schemaNotFound(String what) {
        return new SchemaRegistryException(404, SCHEMA_NOT_FOUND, what);
    }
}
