package io.agentoutcomes.app.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.app.kafka.RestoreTracker;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's HTTP server. It listens from the start (its address is the Kafka Streams {@code application.server})
 * and serves, once Kafka Streams is {@link #attach attached}:
 * <ul>
 *   <li>{@code GET /health/live}: 200 while the process can work (Kafka Streams created, rebalancing or running),
 *       503 once Kafka Streams is shutting down, stopped or failed; {@code GET /health/ready} and {@code GET /health}:
 *       200 only while it is RUNNING with every store restored ({@link StreamsHealth});</li>
 *   <li>{@code GET /metrics}: Prometheus text format: the domain meters ({@link DomainMeters}), Kafka Streams' own
 *       metrics (the pipeline's sensors among them: rejected input, duplicates, ignored failures) and the JVM's;</li>
 *   <li>the jobs, analytics and pages of {@link QueryRoutes}.</li>
 * </ul>
 * Health and metrics are answered on the server's own threads; everything else on a bounded pool of query threads,
 * so slow queries (another instance not answering) cannot starve the probes. When that pool and its queue are full,
 * a query is answered 503 at once.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final int QUERY_THREADS = 4;
    private static final int QUERY_QUEUE = 64;

    private final HttpServer server;
    private final ThreadPoolExecutor queries = new ThreadPoolExecutor(QUERY_THREADS, QUERY_THREADS, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUERY_QUEUE), r -> {
                Thread thread = new Thread(r, "http-api-query");
                thread.setDaemon(true);
                return thread;
            });
    private volatile Attached attached;

    /** What answers once Kafka Streams is there. */
    private record Attached(KafkaStreams streams, RestoreTracker restores, QueryRoutes routes,
                            PrometheusMeterRegistry metrics, DomainMeters domainMeters) {
    }

    public HttpApiServer(String host, int port) throws IOException {
        this.server = HttpResponses.listen(host, port, "http-api");
        server.createContext("/", this::dispatch);
        server.start();
    }

    /** Starts answering for this Kafka Streams instance, reachable by others at {@code self}, with its metrics. */
    public void attach(KafkaStreams streams, HostInfo self, PrometheusMeterRegistry metrics, int maxLabelSets,
                       RestoreTracker restores) {
        AnalyticsQueries analytics = new AnalyticsQueries(streams, self, restores);
        this.attached = new Attached(streams, restores, new QueryRoutes(new JobQueries(streams, self, restores), analytics),
                metrics, new DomainMeters(metrics, analytics::localTotals, maxLabelSets));
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8080}. */
    public String url() {
        InetSocketAddress address = server.getAddress();
        return "http://" + address.getHostString() + ":" + address.getPort();
    }

    /** The port listened on (the configured one, or the one picked for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        HttpResponses.stop(server);
        queries.shutdownNow();
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        if (path.equals("/health") || path.startsWith("/health/") || path.equals("/metrics")) {
            answer(exchange, () -> probe(exchange, path));
            return;
        }
        try {
            queries.execute(() -> answer(exchange, () -> query(exchange)));
        } catch (RejectedExecutionException e) {
            answer(exchange, () -> QueryRoutes.unavailable(exchange, "too many queries in progress"));
        }
    }

    private interface Answer {
        void run() throws IOException;
    }

    /** Runs an answer; a bad request is 400 with its reason, anything else unexpected 500 without internals. */
    private static void answer(HttpExchange exchange, Answer answer) {
        try {
            try {
                answer.run();
            } catch (HttpResponses.BadRequest e) {
                QueryRoutes.json(exchange, 400, QueryRoutes.error("bad request", e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("HTTP request {} failed", exchange.getRequestURI(), e);
                QueryRoutes.json(exchange, 500, QueryRoutes.error("internal error", "the request failed; the service log has the details"));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not answer {}: {}", exchange.getRequestURI(), e.getMessage());
            exchange.close();
        }
    }

    private void probe(HttpExchange exchange, String path) throws IOException {
        if (!getOrHead(exchange)) {
            return;
        }
        Attached now = attached;
        StreamsHealth health = now == null ? StreamsHealth.of(null, null) : StreamsHealth.of(now.streams(), now.restores());
        switch (path) {
            case "/health/live" -> {
                boolean live = health.live();
                QueryRoutes.json(exchange, live ? 200 : 503, JSON.createObjectNode().put("status", live ? "UP" : "DOWN")
                        .put("streams", health.stateName()));
            }
            case "/health", "/health/ready" -> {
                String why = health.whyNotReady();
                ObjectNode body = JSON.createObjectNode().put("status", why == null ? "UP" : "DOWN")
                        .put("streams", health.stateName());
                QueryRoutes.json(exchange, why == null ? 200 : 503, why == null ? body : body.put("reason", why));
            }
            case "/metrics" -> {
                if (now == null) {
                    QueryRoutes.unavailable(exchange, "the service is starting");
                } else {
                    now.domainMeters().refresh();
                    HttpResponses.send(exchange, 200, PROMETHEUS_TYPE, now.metrics().scrape());
                }
            }
            default -> QueryRoutes.json(exchange, 404, QueryRoutes.error("not found", exchange.getRequestURI().getPath()));
        }
    }

    private void query(HttpExchange exchange) throws IOException {
        if (!getOrHead(exchange)) {
            return;
        }
        Attached now = attached;
        if (now == null) {
            QueryRoutes.unavailable(exchange, "the service is starting");
        } else {
            now.routes().answer(exchange);
        }
    }

    private static boolean getOrHead(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            return true;
        }
        QueryRoutes.json(exchange, 405, QueryRoutes.error("method not allowed", method));
        return false;
    }
}
