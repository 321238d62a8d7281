package io.agentoutcomes.avro.registry;

/** One version of a subject: the registry's answer to a look-up, and one entry of its log. */
public record RegisteredSchema(String subject, int version, int id, String schema) {
}
