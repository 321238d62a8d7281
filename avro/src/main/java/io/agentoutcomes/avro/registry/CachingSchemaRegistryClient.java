package io.agentoutcomes.avro.registry;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Caches what never changes once the registry has said it: a schema's id under a subject, and the schema of an id.
 * The latest version of a subject can change: it is kept for a time to live ({@code latest.cache.ttl.sec};
 * negative = for the life of the client, as Confluent's serde does).
 */
public final class CachingSchemaRegistryClient implements SchemaRegistryClient {
    private record SubjectSchema(String subject, String schema) {
    }

    private record Latest(RegisteredSchema schema, long fetchedAtNanos) {
    }

    private final SchemaRegistryClient delegate;
    private final long latestTtlNanos;
    private final Map<String, Latest> latest = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, Integer> registered = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, Integer> lookedUp = new ConcurrentHashMap<>();
    private final Map<Integer, String> schemas = new ConcurrentHashMap<>();

    public CachingSchemaRegistryClient(SchemaRegistryClient delegate, Duration latestTtl) {
        this.delegate = delegate;
        this.latestTtlNanos = latestTtl.isNegative() ? Long.MAX_VALUE : latestTtl.toNanos();
    }

    @Override
    public int register(String subject, String schema) {
        return registered.computeIfAbsent(new SubjectSchema(subject, schema), k -> delegate.register(subject, schema));
    }

    @Override
    public int idOf(String subject, String schema) {
        return lookedUp.computeIfAbsent(new SubjectSchema(subject, schema), k -> delegate.idOf(subject, schema));
    }

    @Override
    public String schemaById(int id) {
        return schemas.computeIfAbsent(id, delegate::schemaById);
    }

    @Override
    public RegisteredSchema latest(String subject) {
        long now = System.nanoTime();
        Latest cached = latest.get(subject);
        if (cached != null && now - cached.fetchedAtNanos() < latestTtlNanos) {
            return cached.schema();
        }
        RegisteredSchema fresh = delegate.latest(subject);
        latest.put(subject, new Latest(fresh, now));
        return fresh;
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
