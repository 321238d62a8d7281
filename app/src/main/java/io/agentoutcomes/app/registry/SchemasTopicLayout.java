package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import java.io.IOException;
import java.util.Optional;

/**
 * The records of the schemas topic, in the layout Confluent's registry uses: JSON keys
 * {@code {"keytype":"SCHEMA","subject":..,"version":..}} and {@code {"keytype":"CONFIG","subject":..}}, JSON values;
 * plus the embedded registries' writer announcement, a key type of their own ({@code EMBEDDED_WRITER}, not one of
 * Confluent's; read as routing, never as schema data).
 */
final class SchemasTopicLayout {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WRITER_KEY_TYPE = "EMBEDDED_WRITER";

    private SchemasTopicLayout() {
    }

    /** The registry that writes the topic: an id per running store (a restart on the same URL is another writer). */
    record Writer(String instance, String url) {
    }

    /** What one record of the topic says. */
    sealed interface Entry permits SchemaEntry, ConfigEntry, WriterEntry {
    }

    /** A schema registered under a subject. */
    record SchemaEntry(RegisteredSchema schema) implements Entry {
    }

    /** A compatibility level, of a subject or (subject null) the global one. */
    record ConfigEntry(String subject, CompatibilityLevel level) implements Entry {
    }

    /** The writer announced, or (writer null) none any more. */
    record WriterEntry(Writer writer) implements Entry {
    }

    static String schemaKey(RegisteredSchema schema) {
        return JSON.createObjectNode().put("keytype", "SCHEMA").put("subject", schema.subject())
                .put("version", schema.version()).put("magic", 1).toString();
    }

    static String schemaValue(RegisteredSchema schema) {
        return JSON.createObjectNode().put("subject", schema.subject()).put("version", schema.version())
                .put("id", schema.id()).put("schema", schema.schema()).put("deleted", false).toString();
    }

    static String configKey(String subject) {
        return JSON.createObjectNode().put("keytype", "CONFIG").put("subject", subject).put("magic", 0).toString();
    }

    static String configValue(CompatibilityLevel level) {
        return JSON.createObjectNode().put("compatibilityLevel", level.name()).toString();
    }

    static String writerKey() {
        return JSON.createObjectNode().put("keytype", WRITER_KEY_TYPE).put("magic", 0).toString();
    }

    static String writerValue(Writer writer) {
        return JSON.createObjectNode().put("url", writer.url()).put("instance", writer.instance()).toString();
    }

    /**
     * What a record says; empty for one that says nothing to a registry (no key, a deleted schema, a tombstone of
     * Confluent's keys, a key type of another kind). Throws for a record that cannot be read.
     */
    static Optional<Entry> read(String keyText, String valueText) throws IOException {
        if (keyText == null) {
            return Optional.empty();
        }
        JsonNode key = JSON.readTree(keyText);
        String keyType = key.path("keytype").asText();
        if (keyType.equals(WRITER_KEY_TYPE)) {
            JsonNode value = valueText == null ? null : JSON.readTree(valueText);
            return Optional.of(new WriterEntry(value == null ? null
                    : new Writer(value.path("instance").asText(), value.path("url").asText())));
        }
        if (valueText == null) {
            return Optional.empty();
        }
        JsonNode value = JSON.readTree(valueText);
        return switch (keyType) {
            case "SCHEMA" -> value.path("deleted").asBoolean(false) ? Optional.empty()
                    : Optional.of(new SchemaEntry(new RegisteredSchema(value.path("subject").asText(),
                            value.path("version").asInt(), value.path("id").asInt(), value.path("schema").asText())));
            case "CONFIG" -> Optional.of(new ConfigEntry(key.path("subject").isNull() ? null : key.path("subject").asText(),
                    CompatibilityLevel.parse(value.path("compatibilityLevel").asText())));
            default -> Optional.empty();
        };
    }
}
