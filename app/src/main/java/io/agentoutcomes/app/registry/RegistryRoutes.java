package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.Routes;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The Schema Registry REST API over a {@link SchemaStore}, as a route table (the subset Confluent's, kafkajs's and
 * Confluent's JS clients use): registration and look-up, schemas by id, subjects and versions, compatibility
 * configuration and checks. Each route answers JSON (a schema's text alone for {@code .../schema}) or throws the
 * registry's errors ({@link SchemaRegistryException}, {@link BadRequest}); a write that reaches a registry which is not
 * the writer goes on to the writer ({@link WriterForwarder}).
 */
final class RegistryRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a registry that forwarded a write waits to read it, so a read sent to it next finds it. */
    private static final Duration FORWARDED_WRITE_VISIBLE_WAIT = Duration.ofSeconds(10);

    /** Answers a request: its JSON, a text node for a schema's text alone. */
    interface Handler {
        JsonNode handle(HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    private final SchemaStore store;
    private final WriterForwarder forwarder;
    private final int maxRequestBytes;

    RegistryRoutes(SchemaStore store, WriterForwarder forwarder, int maxRequestBytes) {
        this.store = store;
        this.forwarder = forwarder;
        this.maxRequestBytes = maxRequestBytes;
    }

    Routes<Handler> table() {
        return new Routes<>(List.of(
                Route.of("GET", "/", (exchange, path) -> JSON.createObjectNode()),
                Route.of("GET", "/subjects", (exchange, path) -> array(store.state().subjects())),
                Route.of("POST", "/subjects/{subject}", (exchange, path) ->
                        describe(lookup(store.state(), path.get("subject"), schemaOf(body(exchange))))),
                Route.of("GET", "/subjects/{subject}/versions", (exchange, path) ->
                        array(store.state().versions(path.get("subject")))),
                Route.of("POST", "/subjects/{subject}/versions", (exchange, path) -> register(exchange, path.get("subject"))),
                Route.of("GET", "/subjects/{subject}/versions/{version}", (exchange, path) ->
                        describe(store.state().version(path.get("subject"), path.get("version")))),
                Route.of("GET", "/subjects/{subject}/versions/{version}/schema", (exchange, path) ->
                        JSON.getNodeFactory().textNode(store.state().version(path.get("subject"), path.get("version")).schema())),
                Route.of("GET", "/schemas/types", (exchange, path) -> array(List.of("AVRO"))),
                Route.of("GET", "/schemas/ids/{id}", (exchange, path) ->
                        JSON.createObjectNode().put("schema", schemaById(store.state(), parseId(path.get("id"))))),
                Route.of("GET", "/schemas/ids/{id}/schema", (exchange, path) ->
                        JSON.getNodeFactory().textNode(schemaById(store.state(), parseId(path.get("id"))))),
                Route.of("GET", "/schemas/ids/{id}/subjects", (exchange, path) -> subjectsOf(parseId(path.get("id")))),
                Route.of("GET", "/schemas/ids/{id}/versions", (exchange, path) -> versionsOf(parseId(path.get("id")))),
                Route.of("GET", "/config", (exchange, path) -> compatibility(exchange, null)),
                Route.of("GET", "/config/{subject}", (exchange, path) -> compatibility(exchange, path.get("subject"))),
                Route.of("PUT", "/config", (exchange, path) -> setCompatibility(exchange, null)),
                Route.of("PUT", "/config/{subject}", (exchange, path) -> setCompatibility(exchange, path.get("subject"))),
                Route.of("POST", "/compatibility/subjects/{subject}/versions/{version}", (exchange, path) ->
                        checkCompatibility(exchange, path.get("subject"), path.get("version")))));
    }

    /** {@code POST /subjects/{subject}/versions}: registers a schema (or finds it registered), answering its id. */
    private JsonNode register(HttpExchange exchange, String subject) throws IOException {
        SchemaRegistryState state = store.state();
        String body = body(exchange);
        String schema = schemaOf(body);
        return write(exchange, body, () -> JSON.createObjectNode().put("id", store.register(subject, schema).id()),
                answer -> hasVersion(state, subject, schema, answer.path("id").asInt()));
    }

    /** {@code GET /schemas/ids/{id}/subjects}: the subjects using a schema. */
    private JsonNode subjectsOf(int id) {
        SchemaRegistryState state = store.state();
        schemaById(state, id);
        return array(state.usesOf(id).stream().map(RegisteredSchema::subject).distinct().toList());
    }

    /** {@code GET /schemas/ids/{id}/versions}: the subjects and versions using a schema. */
    private JsonNode versionsOf(int id) {
        SchemaRegistryState state = store.state();
        schemaById(state, id);
        ArrayNode uses = JSON.createArrayNode();
        state.usesOf(id).forEach(v -> uses.addObject().put("subject", v.subject()).put("version", v.version()));
        return uses;
    }

    /** {@code GET /config} and {@code /config/{subject}}: the global compatibility, or a subject's. */
    private JsonNode compatibility(HttpExchange exchange, String subject) {
        SchemaRegistryState state = store.state();
        boolean defaultToGlobal = Boolean.parseBoolean(HttpExchanges.query(exchange).get("defaultToGlobal"));
        CompatibilityLevel level = subject == null ? state.globalCompatibility()
                : state.subjectCompatibility(subject)
                        .or(() -> defaultToGlobal ? Optional.of(state.globalCompatibility()) : Optional.empty())
                        .orElseThrow(() -> new SchemaRegistryException(404,
                                SchemaRegistryException.SUBJECT_COMPATIBILITY_NOT_CONFIGURED,
                                "Subject '" + subject + "' does not have subject-level compatibility configured"));
        return JSON.createObjectNode().put("compatibilityLevel", level.name());
    }

    /** {@code PUT /config} and {@code /config/{subject}}: sets the global compatibility, or a subject's. */
    private JsonNode setCompatibility(HttpExchange exchange, String subject) throws IOException {
        SchemaRegistryState state = store.state();
        String body = body(exchange);
        CompatibilityLevel level = CompatibilityLevel.parse(readJson(body).path("compatibility").asText(null));
        return write(exchange, body, () -> {
            store.setCompatibility(subject, level);
            return JSON.createObjectNode().put("compatibility", level.name());
        }, answer -> level == (subject == null ? state.globalCompatibility()
                : state.subjectCompatibility(subject).orElse(null)));
    }

    /** {@code POST /compatibility/subjects/{subject}/versions/{version}}: whether a schema could be registered. */
    private JsonNode checkCompatibility(HttpExchange exchange, String subject, String version) throws IOException {
        List<String> errors = store.state().compatibilityErrors(subject, version, schemaOf(body(exchange)));
        ObjectNode answer = JSON.createObjectNode().put("is_compatible", errors.isEmpty());
        if (Boolean.parseBoolean(HttpExchanges.query(exchange).get("verbose"))) {
            answer.set("messages", array(errors));
        }
        return answer;
    }

    /**
     * Makes a change to the store here when this registry is the writer; otherwise sends the request to the writer
     * and relays its answer, then reads on until {@code visible} holds for it, so a read sent here next sees the change.
     * When the writer does not answer, this registry takes its role over and makes the change itself.
     */
    private JsonNode write(HttpExchange exchange, String body, Supplier<JsonNode> change, Predicate<JsonNode> visible) {
        Set<String> unreachableWriters = new HashSet<>();
        while (true) {
            String writerUrl;
            try {
                return change.get();
            } catch (NotTheWriterException e) {
                writerUrl = e.writerUrl();
            }
            if (WriterForwarder.isForwarded(exchange) || unreachableWriters.contains(writerUrl)) {
                // Sending it on again could loop between two registries that each think the other writes.
                throw new SchemaRegistryException(500, WriterForwarder.UNKNOWN_WRITER,
                        "This schema registry is not the writer of its schemas topic and the writer it knows of, at "
                                + writerUrl + ", cannot take this request: retry");
            }
            try {
                JsonNode answer = forwarder.forward(exchange, writerUrl, body);
                store.refreshUntil(() -> visible.test(answer), FORWARDED_WRITE_VISIBLE_WAIT);
                return answer;
            } catch (WriterForwarder.WriterUnreachable e) {
                store.writerUnreachable(writerUrl);
                unreachableWriters.add(writerUrl);
            }
        }
    }

    private static boolean hasVersion(SchemaRegistryState state, String subject, String schema, int id) {
        try {
            return state.lookup(subject, schema).id() == id;
        } catch (SchemaRegistryException e) {
            return false;
        }
    }

    private RegisteredSchema lookup(SchemaRegistryState state, String subject, String schema) {
        try {
            return state.lookup(subject, schema);
        } catch (SchemaRegistryException e) {
            store.refresh();
            return state.lookup(subject, schema);
        }
    }

    private String schemaById(SchemaRegistryState state, int id) {
        try {
            return state.schemaById(id);
        } catch (SchemaRegistryException e) {
            store.refresh();
            return state.schemaById(id);
        }
    }

    /** Reads the {@code schema} of a registration body, refusing what this registry does not support. */
    private static String schemaOf(String text) {
        JsonNode body = readJson(text);
        String type = body.path("schemaType").asText("AVRO");
        if (!type.equalsIgnoreCase("AVRO")) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Schema type " + type + " is not supported: this registry keeps Avro schemas only");
        }
        if (body.path("references").isArray() && !body.path("references").isEmpty()) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "Schema references are not supported by this registry");
        }
        JsonNode schema = body.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw new SchemaRegistryException(422, SchemaRegistryException.INVALID_SCHEMA,
                    "The request body needs a \"schema\" field holding the schema as a string");
        }
        return schema.asText();
    }

    /** The request body, refused with 413 past {@code maxRequestBytes}. */
    private String body(HttpExchange exchange) throws IOException {
        return HttpExchanges.body(exchange, maxRequestBytes).orElseThrow(() -> new SchemaRegistryException(413, 413,
                "The request body is larger than " + maxRequestBytes + " bytes"));
    }

    private static JsonNode readJson(String text) {
        try {
            JsonNode body = JSON.readTree(text);
            if (body == null || !body.isObject()) {
                throw new BadRequest(400, "The request body must be a JSON object");
            }
            return body;
        } catch (JacksonException e) {
            throw new BadRequest(400, "The request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static int parseId(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new SchemaRegistryException(404, SchemaRegistryException.SCHEMA_NOT_FOUND, "Schema " + text + " not found");
        }
    }

    private static ObjectNode describe(RegisteredSchema schema) {
        return JSON.createObjectNode().put("subject", schema.subject()).put("version", schema.version())
                .put("id", schema.id()).put("schema", schema.schema());
    }

    private static ArrayNode array(List<?> values) {
        ArrayNode array = JSON.createArrayNode();
        for (Object value : values) {
            if (value instanceof Integer number) {
                array.add(number);
            } else {
                array.add(String.valueOf(value));
            }
        }
        return array;
    }

    /** A request this registry cannot read: its status and Confluent's error code are the same. */
    static final class BadRequest extends RuntimeException {
        private final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }
}
