package io.agentoutcomes.avro.registry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-memory registries for unit tests, addressed as {@code mock://<scope>}: every serde configured with the same
 * scope shares one registry, as with Confluent's mock registry. Same rules as the real one ({@link SchemaRegistryState}).
 */
public final class MockSchemaRegistry {
    public static final String MOCK_URL_PREFIX = "mock://";

    private static final Map<String, SchemaRegistryState> SCOPES = new ConcurrentHashMap<>();

    private MockSchemaRegistry() {
    }

    /** The client for a {@code mock://scope} URL (the scope is what follows the prefix). */
    public static SchemaRegistryClient clientFor(String mockUrl) {
        String scope = mockUrl.substring(MOCK_URL_PREFIX.length());
        return new StateClient(mockUrl, SCOPES.computeIfAbsent(scope, s -> new SchemaRegistryState()));
    }

    /** Forgets a scope's schemas. */
    public static void dropScope(String scope) {
        SCOPES.remove(scope);
    }

    /** A client answering from a registry's state directly: also what the embedded server's own serdes use. */
    public record StateClient(String describe, SchemaRegistryState state) implements SchemaRegistryClient {
        @Override
        public int register(String subject, String schema) {
            return state.register(subject, schema).id();
        }

        @Override
        public int idOf(String subject, String schema) {
            return state.lookup(subject, schema).id();
        }

        @Override
        public String schemaById(int id) {
            return state.schemaById(id);
        }

        @Override
        public RegisteredSchema latest(String subject) {
            return state.version(subject, "latest");
        }
    }
}
