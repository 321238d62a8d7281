package io.agentoutcomes.app.http.health;

import static io.agentoutcomes.app.http.HttpApiServer.get;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpApiServer.Access;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpApiServer.Pool;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.kafka.StreamsProgress;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The health routes, open to anyone: {@code GET /health/live} answers 200 while the process can work (Kafka Streams
 * created, rebalancing or running, or the service still starting), 503 once Kafka Streams is shutting down, stopped or
 * failed; {@code GET /health/ready} and {@code GET /health} answer 200 once Kafka Streams has taken its first
 * assignment, while it is RUNNING or rebalancing again with every store restored ({@link StreamsHealth}). Before Kafka Streams is {@link #attach attached}, they say what the service is
 * doing ({@link #starting}).
 */
public final class HealthRoutes {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What answers once Kafka Streams is there. */
    private record Attached(KafkaStreams streams, StreamsProgress progress) {
    }

    private volatile Attached attached;
    /** What the service is doing before Kafka Streams is attached ("waiting for Kafka at ..."), for the health answers. */
    private volatile String starting = "starting";

    /**
     * Says what the service is doing while it starts, before {@link #attach}: {@code /health/live} answers 200 with it as
     * {@code starting}, {@code /health/ready} 503 with it as the reason.
     */
    public void starting(String what) {
        starting = what;
    }

    /** From now on, the health of this Kafka Streams instance. */
    public void attach(KafkaStreams streams, StreamsProgress progress) {
        attached = new Attached(streams, progress);
    }

    public List<Route<Endpoint>> routes() {
        return List.of(
                get("/health/live", Pool.HEALTH, Access.PUBLIC, (exchange, path) -> live(exchange)),
                get("/health/ready", Pool.HEALTH, Access.PUBLIC, (exchange, path) -> ready(exchange)),
                get("/health", Pool.HEALTH, Access.PUBLIC, (exchange, path) -> ready(exchange)));
    }

    private void live(HttpExchange exchange) throws IOException {
        Attached now = attached;
        StreamsHealth health = health(now);
        boolean live = health.live();
        ObjectNode body = JSON.createObjectNode().put("status", live ? "UP" : "DOWN").put("streams", health.stateName());
        HttpExchanges.json(exchange, live ? 200 : 503, now == null ? body.put("starting", starting) : body);
    }

    private void ready(HttpExchange exchange) throws IOException {
        Attached now = attached;
        StreamsHealth health = health(now);
        String why = now == null ? starting : health.whyNotReady();
        ObjectNode body = JSON.createObjectNode().put("status", why == null ? "UP" : "DOWN").put("streams", health.stateName());
        HttpExchanges.json(exchange, why == null ? 200 : 503, why == null ? body : body.put("reason", why));
    }

    private static StreamsHealth health(Attached now) {
        return now == null ? StreamsHealth.of(null, null) : StreamsHealth.of(now.streams(), now.progress());
    }
}
