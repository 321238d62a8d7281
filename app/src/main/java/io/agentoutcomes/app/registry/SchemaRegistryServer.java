package io.agentoutcomes.app.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.http.HttpServers;
import io.agentoutcomes.app.http.Routes;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Schema Registry REST API server over a {@link SchemaStore}: the routes of {@link RegistryRoutes} on the project's
 * HTTP server, with Confluent's JSON errors. Only Avro schemas, without references. With authentication on
 * ({@link HttpSecurity}), only reads are answered without credentials.
 */
public final class SchemaRegistryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistryServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = RestSchemaRegistryClient.CONTENT_TYPE;

    /** Request bodies longer than this are refused with 413 unless configured otherwise; a registration is kilobytes. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;

    private final HttpServer server;
    private final Routes<RegistryRoutes.Handler> routes;
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
        this.security = security;
        this.routes = new RegistryRoutes(store, new WriterForwarder(security), maxRequestBytes).table();
        this.server = HttpServers.listen(host, port, "schema-registry-http", security.registrySslContext(),
                security.registryClientCertificates());
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
            Optional<Routes.Match<RegistryRoutes.Handler>> route = routes.find(method, HttpExchanges.segments(exchange));
            if (route.isEmpty()) {
                error(exchange, 404, 404, "HTTP 404 Not Found");
                return;
            }
            JsonNode answer = route.get().target().handle(exchange, route.get().path());
            // a schema's text alone (.../schema) is the one answer sent as it is, not as a JSON string
            HttpExchanges.send(exchange, 200, CONTENT_TYPE, answer.isTextual() ? answer.asText() : answer.toString());
        } catch (SchemaRegistryException e) {
            error(exchange, e.status(), e.errorCode(), e.getMessage());
        } catch (RegistryRoutes.BadRequest e) {
            error(exchange, e.status(), e.status(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("Schema registry request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            error(exchange, 500, 50001, "Internal error: " + e);
        }
    }

    private static void error(HttpExchange exchange, int status, int errorCode, String message) throws IOException {
        HttpExchanges.send(exchange, status, CONTENT_TYPE,
                JSON.createObjectNode().put("error_code", errorCode).put("message", message).toString());
    }
}
