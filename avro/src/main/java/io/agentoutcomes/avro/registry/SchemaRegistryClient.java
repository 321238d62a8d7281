package io.agentoutcomes.avro.registry;

/**
 * What the serde needs of a schema registry. Implemented over the Schema Registry REST API
 * ({@link RestSchemaRegistryClient}) and in memory for tests ({@link MockSchemaRegistry}).
 */
public interface SchemaRegistryClient {

    /** Registers the schema under the subject (or finds it there) and returns its id. */
    int register(String subject, String schema);

    /** The id of a schema already registered under the subject; 40401/40403 if it is not. */
    int idOf(String subject, String schema);

    /** The schema text with this id; 40403 if the registry has none. */
    String schemaById(int id);

    /** The latest version of a subject; 40401 if the subject is unknown. */
    RegisteredSchema latest(String subject);

    /** Where the registry is, for error messages. */
    String describe();
}
