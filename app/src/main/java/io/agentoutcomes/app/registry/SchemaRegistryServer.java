package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.HttpServers;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Schema Registry REST API server (the subset Confluent's, kafkajs's and Confluent's JS clients use) over a
 * {@link SchemaStore}: registration and look-up, schemas by id, subjects and versions, compatibility
 * configuration and checks, with Confluent's JSON errors. Only Avro schemas, without references. With authentication
 * on ({@link HttpSecurity}), only reads are answered without credentials.
 */
public final class SchemaRegistryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = RestSchemaRegistryClient.CONTENT_TYPE;

    /** How long a registry that forwarded a write waits to read it, so a read sent to it next finds it. */
    private static final Duration FORWARDED_WRITE_VISIBLE_WAIT = Duration.ofSeconds(10);
    /** Request bodies longer than this are refused with 413 unless configured otherwise; a registration is kilobytes. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

    private final SchemaStore store;
    private final HttpServer server;
    private final WriterForwarder forwarder;
    private final int maxRequestBytes;
    private final HttpSecurity security;

    /** Starts serving on {@code host:port} (port 0 picks a free one), reached by other registries at the same host. */
    public SchemaRegistryServer(SchemaStore store, String host, int port) throws IOException {
        this(store, host, port, host, DEFAULT_MAX_REQUEST_BYTES);
    }

    /**
     * Starts serving on {@code host:port} (port 0 picks a free one). {@code advertisedHost} is where other
     * registries sharing the store reach this one, to send it their writes when it is the writer; request bodies
     * over {@code maxRequestBytes} are refused with 413.
     */
    public SchemaRegistryServer(SchemaStore store, String host, int port, String advertisedHost, int maxRequestBytes)
            throws IOException {
        this(store, host, port, advertisedHost, maxRequestBytes, HttpSecurity.none());
    }

    /**
     * As {@link #SchemaRegistryServer(SchemaStore, String, int, String, int)}, with the credentials and TLS of
     * {@code security}: with authentication on, every request but a read (GET, HEAD) needs the credentials (401
     * otherwise, as Confluent's registry answers), and writes forwarded to the writer carry this registry's own.
     */
    public SchemaRegistryServer(SchemaStore store, String host, int port, String advertisedHost, int maxRequestBytes,
                                HttpSecurity security) throws IOException {
        this.store = store;
        this.maxRequestBytes = maxRequestBytes;
        this.security = security;
        this.forwarder = new WriterForwarder(security);
        this.server = HttpServers.listen(host, port, "schema-registry-http", security.serverSslContext());
        server.createContext("/", this::handle);
        try {
            String advertised = advertisedHost.equals("0.0.0.0") || advertisedHost.equals("::") ? "localhost" : advertisedHost;
            store.open(security.scheme() + "://" + advertised + ":" + server.getAddress().getPort());
        } catch (RuntimeException e) {
            HttpServers.stop(server);
            throw e;
        }
        server.start();
    }

    /** The base URL clients use, e.g. {@code http://localhost:8081} ({@code https://} with TLS). */
    public String url() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().isAnyLocalAddress() ? "localhost" : address.getHostString();
        return security.scheme() + "://" + host + ":" + address.getPort();
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        HttpServers.stop(server);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD") && security.authRequired()
                    && !security.authenticated(exchange.getRequestHeaders())) {
                security.challenge(exchange.getResponseHeaders());
                error(exchange, 401, 401, "Unauthorized: this registry's writes need credentials "
                        + "(basic.auth.user.info, or bearer.auth.token with bearer.auth.credentials.source=STATIC_TOKEN)");
                return;
            }
            List<String> path = segments(exchange.getRequestURI().getRawPath());
            JsonNode answer = route(method, path, exchange);
            if (answer == null) {
                error(exchange, 404, 404, "HTTP 404 Not Found");
            } else if (answer.isTextual() && path.get(path.size() - 1).equals("schema")) {
                HttpExchanges.send(exchange, 200, CONTENT_TYPE, answer.asText());
            } else {
                HttpExchanges.send(exchange, 200, CONTENT_TYPE, answer.toString());
            }
        } catch (SchemaRegistryException e) {
            error(exchange, e.status(), e.errorCode(), e.getMessage());
        } catch (BadRequest e) {
            error(exchange, e.status, e.status, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Schema registry request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            error(exchange, 500, 50001, "Internal error: " + e);
        }
    }

    /** Returns the JSON answer, or null for an unknown path. Throws for the registry's errors. */
    private JsonNode route(String method, List<String> path, HttpExchange exchange) throws IOException {
        SchemaRegistryState state = store.state();
        int n = path.size();
        String first = n > 0 ? path.get(0) : "";
        switch (first) {
            case "" -> {
                return n == 0 && method.equals("GET") ? JSON.createObjectNode() : null;
            }
            case "subjects" -> {
                if (n == 1 && method.equals("GET")) {
                    return array(state.subjects());
                }
                String subject = n > 1 ? path.get(1) : null;
                if (n == 2 && method.equals("POST")) {
                    return describe(lookup(state, subject, schemaOf(body(exchange))));
                }
                if (n == 3 && path.get(2).equals("versions")) {
                    if (method.equals("GET")) {
                        return array(state.versions(subject));
                    }
                    if (method.equals("POST")) {
                        String body = body(exchange);
                        String schema = schemaOf(body);
                        return write(exchange, body,
                                () -> JSON.createObjectNode().put("id", store.register(subject, schema).id()),
                                answer -> hasVersion(state, subject, schema, answer.path("id").asInt()));
                    }
                }
                if (n >= 4 && path.get(2).equals("versions") && method.equals("GET")) {
                    RegisteredSchema version = state.version(subject, path.get(3));
                    if (n == 4) {
                        return describe(version);
                    }
                    if (n == 5 && path.get(4).equals("schema")) {
                        return JSON.getNodeFactory().textNode(version.schema());
                    }
                }
                return null;
            }
            case "schemas" -> {
                if (n == 2 && path.get(1).equals("types") && method.equals("GET")) {
                    return array(List.of("AVRO"));
                }
                if (n >= 3 && path.get(1).equals("ids") && method.equals("GET")) {
                    int id = parseId(path.get(2));
                    String schema = schemaById(state, id);
                    if (n == 3) {
                        return JSON.createObjectNode().put("schema", schema);
                    }
                    if (n == 4 && path.get(3).equals("schema")) {
                        return JSON.getNodeFactory().textNode(schema);
                    }
                    if (n == 4 && path.get(3).equals("subjects")) {
                        return array(state.usesOf(id).stream().map(RegisteredSchema::subject).distinct().toList());
                    }
                    if (n == 4 && path.get(3).equals("versions")) {
                        ArrayNode uses = JSON.createArrayNode();
                        state.usesOf(id).forEach(v -> uses.addObject().put("subject", v.subject()).put("version", v.version()));
                        return uses;
                    }
                }
                return null;
            }
            case "config" -> {
                String subject = n == 2 ? path.get(1) : null;
                if (n > 2) {
                    return null;
                }
                if (method.equals("GET")) {
                    boolean defaultToGlobal = Boolean.parseBoolean(HttpExchanges.query(exchange).get("defaultToGlobal"));
                    CompatibilityLevel level = subject == null ? state.globalCompatibility()
                            : state.subjectCompatibility(subject)
                                    .or(() -> defaultToGlobal ? Optional.of(state.globalCompatibility()) : Optional.empty())
                                    .orElseThrow(() -> new SchemaRegistryException(404,
                                            SchemaRegistryException.SUBJECT_COMPATIBILITY_NOT_CONFIGURED,
                                            "Subject '" + subject + "' does not have subject-level compatibility configured"));
                    return JSON.createObjectNode().put("compatibilityLevel", level.name());
                }
                if (method.equals("PUT")) {
                    String body = body(exchange);
                    CompatibilityLevel level = CompatibilityLevel.parse(readJson(body).path("compatibility").asText(null));
                    return write(exchange, body, () -> {
                        store.setCompatibility(subject, level);
                        return JSON.createObjectNode().put("compatibility", level.name());
                    }, answer -> level == (subject == null ? state.globalCompatibility()
                            : state.subjectCompatibility(subject).orElse(null)));
                }
                return null;
            }
            case "compatibility" -> {
                if (n == 5 && path.get(1).equals("subjects") && path.get(3).equals("versions") && method.equals("POST")) {
                    List<String> errors = state.compatibilityErrors(path.get(2), path.get(4),
                            schemaOf(body(exchange)));
                    ObjectNode answer = JSON.createObjectNode().put("is_compatible", errors.isEmpty());
                    if (Boolean.parseBoolean(HttpExchanges.query(exchange).get("verbose"))) {
                        answer.set("messages", array(errors));
                    }
                    return answer;
                }
                return null;
            }
            default -> {
                return null;
            }
        }
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
        } catch (com.fasterxml.jackson.core.JacksonException e) {
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

    private static List<String> segments(String rawPath) {
        return Arrays.stream(rawPath.split("/")).filter(s -> !s.isEmpty())
                .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8)).toList();
    }

    private static void error(HttpExchange exchange, int status, int errorCode, String message) throws IOException {
        HttpExchanges.send(exchange, status, CONTENT_TYPE,
                JSON.createObjectNode().put("error_code", errorCode).put("message", message).toString());
    }

    /** A request this server cannot read. */
    private static final class BadRequest extends RuntimeException {
        private final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}
