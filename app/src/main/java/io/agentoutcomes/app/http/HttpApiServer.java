package io.agentoutcomes.app.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The service's HTTP server: {@code GET /health} answers 200 while Kafka Streams is RUNNING and 503 otherwise,
 * with the state in the body. Unknown paths answer a JSON 404.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JSON_TYPE = "application/json";

    private final HttpServer server;
    private final Supplier<KafkaStreams.State> streamsState;

    public HttpApiServer(String host, int port, Supplier<KafkaStreams.State> streamsState) throws IOException {
        this.streamsState = streamsState;
        this.server = HttpResponses.listen(host, port, "http-api");
        server.createContext("/", this::notFound);
        server.createContext("/health", this::health);
        server.start();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8080}. */
    public String url() {
        InetSocketAddress address = server.getAddress();
        return "http://" + address.getHostString() + ":" + address.getPort();
    }

    @Override
    public void close() {
        HttpResponses.stop(server);
    }

    private void health(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestURI().getPath().equals("/health")) {
            notFound(exchange);
            return;
        }
        KafkaStreams.State state = streamsState.get();
        boolean up = state == KafkaStreams.State.RUNNING;
        HttpResponses.send(exchange, up ? 200 : 503, JSON_TYPE, JSON.createObjectNode()
                .put("status", up ? "UP" : "DOWN").put("streams", state.name()).toString());
    }

    private void notFound(HttpExchange exchange) throws IOException {
        HttpResponses.send(exchange, 404, JSON_TYPE, JSON.createObjectNode().put("error", "not found")
                .put("path", exchange.getRequestURI().getPath()).toString());
    }
}
