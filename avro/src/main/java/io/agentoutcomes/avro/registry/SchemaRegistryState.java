package io.agentoutcomes.avro.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * The rules of a schema registry, in memory: subjects and their versions, ids shared across subjects for the
 * same schema text, and compatibility levels checked with Avro's own reader/writer compatibility.
 *
 * <p>Used as it is by the {@code mock://} registry, and by the embedded registry server, which persists every
 * change to a Kafka topic before {@link #apply applying} it. Thread-safe.
 */
public final class SchemaRegistryState {

    /** The outcome of {@link #prepare}: the version to answer with, and whether it is new (not yet applied). */
    public record Registration(RegisteredSchema schema, boolean isNew) {
    }

    private final Map<Integer, String> schemaById = new HashMap<>();
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final Map<String, List<RegisteredSchema>> versionsBySubject = new TreeMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    private int maxId;

    /**
     * Parses and normalizes Avro schema text: the same schema written with other white space gets the same text,
     * and so the same id. Docs, defaults and field order are kept: they are part of the contract.
     */
    public static String normalize(String schemaText) {
        return parse(schemaText).toString();
    }

    static Schema parse(String schemaText) {
        if (schemaText == null || schemaText.isBlank()) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA, "Empty schema");
        }
        try {
            return new Schema.Parser().parse(schemaText);
        } catch (AvroRuntimeException e) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Invalid schema: " + e.getMessage());
        } catch (RuntimeException e) {
            // Avro's parser answers a reference to an undefined type name with a NullPointerException
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Invalid schema: it uses a type name that is not defined (" + e.getMessage() + ")");
        }
    }

    /**
     * Works out what registering {@code schemaText} under {@code subject} gives, without changing anything:
     * the existing version if the subject has this schema already, else a new version (a new id unless another
     * subject registered the same text). Throws 42201 for an invalid schema, 409 for an incompatible one.
     */
    public synchronized Registration prepare(String subject, String schemaText) {
        String normalized = normalize(schemaText);
        List<RegisteredSchema> versions = versionsBySubject.getOrDefault(subject, List.of());
        for (RegisteredSchema existing : versions) {
            if (existing.schema().equals(normalized)) {
                return new Registration(existing, false);
            }
        }
        List<String> errors = compatibilityErrors(effectiveLevel(subject), versions, normalized);
        if (!errors.isEmpty()) {
            throw new SchemaRegistryException(409, SchemaRegistryException.INCOMPATIBLE_SCHEMA,
                    "Schema being registered is incompatible with an earlier schema for subject '" + subject
                            + "': " + String.join("; ", errors));
        }
        int id = idBySchema.getOrDefault(normalized, maxId + 1);
        int version = versions.isEmpty() ? 1 : versions.get(versions.size() - 1).version() + 1;
        return new Registration(new RegisteredSchema(subject, version, id, normalized), true);
    }

    /** Records a version (a new registration, or one replayed from a log). Applying one twice changes nothing. */
    public synchronized void apply(RegisteredSchema entry) {
        List<RegisteredSchema> versions = versionsBySubject.computeIfAbsent(entry.subject(), s -> new ArrayList<>());
        if (versions.stream().anyMatch(v -> v.version() == entry.version())) {
            return;
        }
        versions.add(entry);
        versions.sort((a, b) -> Integer.compare(a.version(), b.version()));
        schemaById.putIfAbsent(entry.id(), entry.schema());
        idBySchema.putIfAbsent(entry.schema(), entry.id());
        maxId = Math.max(maxId, entry.id());
    }

    /** Registers a schema and returns its version: {@link #prepare} then {@link #apply}. */
    public synchronized RegisteredSchema register(String subject, String schemaText) {
        Registration registration = prepare(subject, schemaText);
        if (registration.isNew()) {
            apply(registration.schema());
        }
        return registration.schema();
    }

    /** The version of {@code subject} that has this schema; 40401 if the subject is unknown, 40403 if not there. */
    public synchronized RegisteredSchema lookup(String subject, String schemaText) {
        String normalized = normalize(schemaText);
        for (RegisteredSchema existing : existingVersions(subject)) {
            if (existing.schema().equals(normalized)) {
                return existing;
            }
        }
        throw SchemaRegistryException.schemaNotFound("Schema not found under subject '" + subject + "'.");
    }

    /** The schema text with this id; 40403 if there is none. */
    public synchronized String schemaById(int id) {
        String schema = schemaById.get(id);
        if (schema == null) {
            throw SchemaRegistryException.schemaNotFound("Schema " + id + " not found");
        }
        return schema;
    }

    /** Every subject and version that uses the schema with this id; 40403 if there is none. */
    public synchronized List<RegisteredSchema> usesOf(int id) {
        schemaById(id);
        List<RegisteredSchema> uses = new ArrayList<>();
        versionsBySubject.values().forEach(vs -> vs.stream().filter(v -> v.id() == id).forEach(uses::add));
        return uses;
    }

    /** The subjects, in name order. */
    public synchronized List<String> subjects() {
        return List.copyOf(versionsBySubject.keySet());
    }

    /** A subject's version numbers, oldest first; 40401 if the subject is unknown. */
    public synchronized List<Integer> versions(String subject) {
        return existingVersions(subject).stream().map(RegisteredSchema::version).toList();
    }

    /**
     * One version of a subject: {@code "latest"}, {@code "-1"} or a version number. 40401 for an unknown
     * subject, 40402 for an unknown version, 42202 for something that is not a version.
     */
    public synchronized RegisteredSchema version(String subject, String versionSpec) {
        List<RegisteredSchema> versions = existingVersions(subject);
        if ("latest".equals(versionSpec) || "-1".equals(versionSpec)) {
            return versions.get(versions.size() - 1);
        }
        int wanted;
        try {
            wanted = Integer.parseInt(versionSpec);
        } catch (NumberFormatException e) {
            wanted = 0;
        }
        if (wanted <= 0) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_VERSION,
                    "The specified version '" + versionSpec + "' is not a valid version id. "
                            + "Allowed values are between [1, 2^31-1] and the string \"latest\"");
        }
        for (RegisteredSchema v : versions) {
            if (v.version() == wanted) {
                return v;
            }
        }
        throw SchemaRegistryException.versionNotFound(subject, versionSpec);
    }

    /** The global compatibility level (BACKWARD unless set). */
    public synchronized CompatibilityLevel globalCompatibility() {
        return globalLevel;
    }

    /** The level set for a subject, if one was. */
    public synchronized Optional<CompatibilityLevel> subjectCompatibility(String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    /** Sets the level of a subject, or the global level when {@code subject} is null. */
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        if (subject == null) {
            globalLevel = level;
        } else {
            subjectLevels.put(subject, level);
        }
    }

    /**
     * Why {@code schemaText} could not be registered against a version of {@code subject}, checked at the
     * subject's level (empty when compatible). {@code versionSpec} "latest" checks against the latest version,
     * and against all of them for a transitive level.
     */
    public synchronized List<String> compatibilityErrors(String subject, String versionSpec, String schemaText) {
        String normalized = normalize(schemaText);
        CompatibilityLevel level = effectiveLevel(subject);
        if ("latest".equals(versionSpec) || "-1".equals(versionSpec)) {
            return compatibilityErrors(level, existingVersions(subject), normalized);
        }
        return compatibilityErrors(level, List.of(version(subject, versionSpec)), normalized);
    }

    private CompatibilityLevel effectiveLevel(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    private List<RegisteredSchema> existingVersions(String subject) {
        List<RegisteredSchema> versions = versionsBySubject.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw SchemaRegistryException.subjectNotFound(subject);
        }
        return versions;
    }

    private static List<String> compatibilityErrors(
            CompatibilityLevel level, List<RegisteredSchema> versions, String candidateText) {
        if (level == CompatibilityLevel.NONE || versions.isEmpty()) {
            return List.of();
        }
        Schema candidate = parse(candidateText);
        List<RegisteredSchema> against = level.transitive ? versions : versions.subList(versions.size() - 1, versions.size());
        List<String> errors = new ArrayList<>();
        for (RegisteredSchema earlier : against) {
            Schema old = parse(earlier.schema());
            if (level.newReadsOld) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, old), "reading version "
                        + earlier.version(), errors);
            }
            if (level.oldReadsNew) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(old, candidate), "read by version "
                        + earlier.version(), errors);
            }
        }
        return errors;
    }

    private static void describe(SchemaCompatibility.SchemaPairCompatibility pair, String direction, List<String> errors) {
        if (pair.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return;
        }
        for (SchemaCompatibility.Incompatibility incompatibility : pair.getResult().getIncompatibilities()) {
            errors.add(direction + ": " + incompatibility.getType() + " at " + incompatibility.getLocation()
                    + " (" + incompatibility.getMessage() + ")");
        }
    }
}
