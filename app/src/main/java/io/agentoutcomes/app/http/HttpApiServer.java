package io.agentoutcomes.app.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.app.http.Routes.Route;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's HTTP server: it answers the routes of one table, given whole when it starts (the health, metrics,
 * query and page routes the service assembles), GET and HEAD (and POST for the routes that write); it listens from the start (its address is the
 * Kafka Streams {@code application.server}).
 * The server's own threads only match a request to its route and hand it over, each kind of request to a bounded pool of
 * its own: health to the health threads, {@code /metrics} to the metrics threads, everything else to the query threads,
 * so neither slow queries (another instance not answering) nor scrapes can hold up a health probe. When a pool and its
 * queue are full, a request is answered 503 at once.
 *
 * <p>With authentication on ({@link HttpSecurity}), every route but health (and metrics, unless they are protected
 * too) answers 401 with a {@code WWW-Authenticate} challenge to a request without the credentials; with TLS the
 * server speaks HTTPS.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final int HEALTH_THREADS = 2;
    private static final int HEALTH_QUEUE = 64;
    private static final int METRICS_THREADS = 2;
    private static final int METRICS_QUEUE = 16;
    private static final int QUERY_THREADS = 4;
    private static final int QUERY_QUEUE = 64;

    /** The threads a route is answered on: health, metrics and queries each on their own, so none waits for another. */
    public enum Pool {
        HEALTH("health probes"), METRICS("scrapes"), QUERIES("queries");

        private final String requests;

        Pool(String requests) {
            this.requests = requests;
        }
    }

    /** Who a route answers: anyone (health), anyone unless metrics are protected, or only requests with the credentials. */
    public enum Access { PUBLIC, METRICS, CREDENTIALS }

    /** Answers a request, given the named segments of its path. */
    public interface Handler {
        void handle(HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    /** What answers a route: its threads, who may ask, its handler. */
    public record Endpoint(Pool pool, Access access, Handler handler) {
    }

    /** A GET (and HEAD) route of the API. */
    public static Route<Endpoint> get(String pattern, Pool pool, Access access, Handler handler) {
        return Route.of("GET", pattern, new Endpoint(pool, access, handler));
    }

    /** A POST route of the API (answered only to POST: a GET of its path is 405). */
    public static Route<Endpoint> post(String pattern, Pool pool, Access access, Handler handler) {
        return Route.of("POST", pattern, new Endpoint(pool, access, handler));
    }

    private final HttpServer server;
    private final ThreadPoolExecutor health = pool("http-api-health", HEALTH_THREADS, HEALTH_QUEUE);
    private final ThreadPoolExecutor metrics = pool("http-api-metrics", METRICS_THREADS, METRICS_QUEUE);
    private final ThreadPoolExecutor queries = pool("http-api-query", QUERY_THREADS, QUERY_QUEUE);
    private final Routes<Endpoint> routes;
    private final HttpSecurity security;

    /** Listens on {@code host:port} with the credentials and TLS of {@code security}, answering {@code routes}. */
    public HttpApiServer(String host, int port, HttpSecurity security, List<Route<Endpoint>> routes) throws IOException {
        this.security = security;
        this.routes = new Routes<>(routes);
        this.server = HttpServers.listen(host, port, "http-api", security.serverSslContext());
        server.createContext("/", this::dispatch);
        server.start();
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8080} ({@code https://} with TLS). */
    public String url() {
        InetSocketAddress address = server.getAddress();
        // Listening on every interface (http.host=0.0.0.0, as in the image): the URL a person on this host can use.
        String host = address.getAddress().isAnyLocalAddress() ? "localhost" : address.getHostString();
        return security.scheme() + "://" + host + ":" + address.getPort();
    }

    /** The port listened on (the configured one, or the one picked for port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The query threads (a test fills them to show the probes still answer). */
    public ThreadPoolExecutor queryThreads() {
        return queries;
    }

    /** The metrics threads (a test fills them to show health still answers). */
    public ThreadPoolExecutor metricsThreads() {
        return metrics;
    }

    @Override
    public void close() {
        HttpServers.stop(server);
        health.shutdownNow();
        metrics.shutdownNow();
        queries.shutdownNow();
    }

    private static ThreadPoolExecutor pool(String name, int threads, int queue) {
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread thread = new Thread(r, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * On the server's threads: finds the route, refuses a request without the credentials it needs (401; before
     * anything else, so the answer tells nothing of what is there), and hands the request to its pool.
     */
    private void dispatch(HttpExchange exchange) {
        answer(exchange, () -> {
            List<String> segments = HttpExchanges.segments(exchange);
            String method = exchange.getRequestMethod().equals("HEAD") ? "GET" : exchange.getRequestMethod();
            Optional<Routes.Match<Endpoint>> match = routes.find(method, segments);
            // The path's route under another method, for the credentials it needs and a 405 rather than a 404.
            Optional<Routes.Match<Endpoint>> anyMethod = match.or(() -> routes.find("GET", segments))
                    .or(() -> routes.find("POST", segments));
            if (needsCredentials(anyMethod.map(found -> found.target().access()).orElse(Access.CREDENTIALS))
                    && !security.authenticated(exchange.getRequestHeaders())) {
                security.challenge(exchange.getResponseHeaders());
                HttpExchanges.json(exchange, 401, HttpExchanges.error("unauthorized",
                        "this endpoint needs the service's credentials (Authorization: Bearer or Basic)"));
                return;
            }
            if (match.isEmpty() && (anyMethod.isPresent() || !method.equals("GET"))) {
                HttpExchanges.json(exchange, 405, HttpExchanges.error("method not allowed", exchange.getRequestMethod()));
                return;
            }
            if (match.isEmpty()) {
                HttpExchanges.json(exchange, 404, HttpExchanges.error("not found", exchange.getRequestURI().getPath()));
                return;
            }
            Endpoint found = match.get().target();
            Map<String, String> path = match.get().path();
            Runnable run = () -> answer(exchange, () -> found.handler().handle(exchange, path));
            try {
                switch (found.pool()) {
                    case HEALTH -> health.execute(run);
                    case METRICS -> metrics.execute(run);
                    case QUERIES -> queries.execute(run);
                }
            } catch (RejectedExecutionException e) {
                HttpExchanges.unavailable(exchange, "too many " + found.pool().requests + " in progress");
            }
        });
    }

    private boolean needsCredentials(Access access) {
        return switch (access) {
            case PUBLIC -> false;
            case METRICS -> security.metricsRequireAuth();
            case CREDENTIALS -> security.authRequired();
        };
    }

    private interface Answer {
        void run() throws IOException;
    }

    /** Runs an answer; a bad request is 400 with its reason, anything else unexpected 500 without internals. */
    private static void answer(HttpExchange exchange, Answer answer) {
        try {
            try {
                answer.run();
            } catch (HttpExchanges.BadRequest e) {
                HttpExchanges.json(exchange, 400, HttpExchanges.error("bad request", e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("HTTP request {} failed", exchange.getRequestURI(), e);
                HttpExchanges.json(exchange, 500, HttpExchanges.error("internal error", "the request failed; the service log has the details"));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Could not answer {}: {}", exchange.getRequestURI(), e.getMessage());
            exchange.close();
        }
    }
}
