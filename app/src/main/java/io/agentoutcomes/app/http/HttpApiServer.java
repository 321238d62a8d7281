package io.agentoutcomes.app.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.app.http.Routes.Access;
import io.agentoutcomes.app.http.Routes.Pool;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.kafka.RestoreTracker;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 * and serves, once Kafka Streams is {@link #attach attached}, the routes of one table ({@link #routes}):
 * <ul>
 *   <li>{@code GET /health/live}: 200 while the process can work (Kafka Streams created, rebalancing or running),
 *       503 once Kafka Streams is shutting down, stopped or failed; {@code GET /health/ready} and {@code GET /health}:
 *       200 only while it is RUNNING with every store restored ({@link StreamsHealth});</li>
 *   <li>{@code GET /metrics}: Prometheus text format: the domain meters ({@link DomainMeters}, {@link RetryScheduleMeters}),
 *       Kafka Streams' own metrics (the pipeline's sensors among them: rejected input, duplicates, ignored failures) and
 *       the JVM's;</li>
 *   <li>the jobs, analytics and pages of {@link QueryRoutes}, other instances' data through {@link QueryFanOut}.</li>
 * </ul>
 * The server's own threads only match a request to its route and hand it over: health and metrics to a pool of probe
 * threads, everything else to a bounded pool of query threads, so slow queries (another instance not answering)
 * cannot starve the probes. When the query pool and its queue are full, a query is answered 503 at once.
 *
 * <p>With authentication on ({@link HttpSecurity}), every route but health (and metrics, unless they are protected
 * too) answers 401 with a {@code WWW-Authenticate} challenge to a request without the credentials; with TLS the
 * server speaks HTTPS.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final int PROBE_THREADS = 2;
    private static final int PROBE_QUEUE = 64;
    private static final int QUERY_THREADS = 4;
    private static final int QUERY_QUEUE = 64;

    private final HttpServer server;
    private final ThreadPoolExecutor probes = pool("http-api-probe", PROBE_THREADS, PROBE_QUEUE);
    private final ThreadPoolExecutor queries = pool("http-api-query", QUERY_THREADS, QUERY_QUEUE);
    private final Routes routes = new Routes(List.of(
            Route.of("/health/live", Pool.PROBES, Access.PUBLIC, (exchange, path) -> live(exchange)),
            Route.of("/health/ready", Pool.PROBES, Access.PUBLIC, (exchange, path) -> ready(exchange)),
            Route.of("/health", Pool.PROBES, Access.PUBLIC, (exchange, path) -> ready(exchange)),
            Route.of("/metrics", Pool.PROBES, Access.METRICS, (exchange, path) -> metrics(exchange)),
            Route.of("/", Pool.QUERIES, Access.CREDENTIALS, page((queries, exchange, path) -> queries.dashboard(exchange))),
            Route.of("/ui/jobs", Pool.QUERIES, Access.CREDENTIALS, page((queries, exchange, path) -> queries.jobsPage(exchange))),
            Route.of("/ui/jobs/{id}", Pool.QUERIES, Access.CREDENTIALS,
                    page((queries, exchange, path) -> queries.jobPage(exchange, path.get("id")))),
            Route.of("/jobs", Pool.QUERIES, Access.CREDENTIALS, api((queries, exchange, path) -> queries.jobList(exchange))),
            Route.of("/jobs/export", Pool.QUERIES, Access.CREDENTIALS, api((queries, exchange, path) -> queries.jobsExport(exchange))),
            Route.of("/jobs/{id}", Pool.QUERIES, Access.CREDENTIALS,
                    api((queries, exchange, path) -> queries.job(exchange, path.get("id"), false))),
            Route.of("/jobs/{id}/completed", Pool.QUERIES, Access.CREDENTIALS,
                    api((queries, exchange, path) -> queries.job(exchange, path.get("id"), true))),
            Route.of("/analytics", Pool.QUERIES, Access.CREDENTIALS, api((queries, exchange, path) -> queries.analytics(exchange))),
            Route.of("/analytics/export", Pool.QUERIES, Access.CREDENTIALS,
                    api((queries, exchange, path) -> queries.analyticsExport(exchange)))));
    private final HttpSecurity security;
    private volatile Attached attached;
    /** What the service is doing before Kafka Streams is attached ("waiting for Kafka at ..."), for the health answers. */
    private volatile String starting = "starting";

    /** What answers once Kafka Streams is there. */
    private record Attached(KafkaStreams streams, RestoreTracker restores, QueryRoutes queries,
                            PrometheusMeterRegistry metrics, DomainMeters domainMeters, RetryScheduleMeters retryMeters) {
    }

    /** Plain HTTP, open to anyone who reaches it ({@link HttpSecurity#none}): for a loopback address. */
    public HttpApiServer(String host, int port) throws IOException {
        this(host, port, HttpSecurity.none());
    }

    /** Listens on {@code host:port} with the credentials and TLS of {@code security}. */
    public HttpApiServer(String host, int port, HttpSecurity security) throws IOException {
        this.security = security;
        this.server = HttpResponses.listen(host, port, "http-api", security.serverSslContext());
        server.createContext("/", this::dispatch);
        server.start();
    }

    /**
     * Says what the service is doing while it starts, before {@link #attach}: {@code /health/live} answers 200 with it as
     * {@code starting}, {@code /health/ready} 503 with it as the reason.
     */
    public void starting(String what) {
        starting = what;
    }

    /** Starts answering for this Kafka Streams instance, reachable by others at {@code self}, with its metrics. */
    public void attach(KafkaStreams streams, HostInfo self, PrometheusMeterRegistry metrics, int maxLabelSets,
                       RestoreTracker restores, Map<String, Set<String>> storeTopics) {
        QueryFanOut fanOut = new QueryFanOut(streams, self, restores, storeTopics, security);
        AnalyticsQueries analytics = new AnalyticsQueries(fanOut);
        RejectionMeters.register(metrics, streams);
        this.attached = new Attached(streams, restores, new QueryRoutes(new JobQueries(fanOut), analytics,
                self.host() + ":" + self.port()), metrics,
                new DomainMeters(metrics, analytics::localTotals, maxLabelSets), new RetryScheduleMeters(metrics, streams));
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
    ThreadPoolExecutor queryThreads() {
        return queries;
    }

    @Override
    public void close() {
        HttpResponses.stop(server);
        probes.shutdownNow();
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
            Optional<Routes.Match> match = routes.find(HttpResponses.segments(exchange));
            if (needsCredentials(match.map(found -> found.route().access()).orElse(Access.CREDENTIALS))
                    && !security.authenticated(exchange.getRequestHeaders())) {
                security.challenge(exchange.getResponseHeaders());
                QueryRoutes.json(exchange, 401, QueryRoutes.error("unauthorized",
                        "this endpoint needs the service's credentials (Authorization: Bearer or Basic)"));
                return;
            }
            if (!getOrHead(exchange)) {
                return;
            }
            if (match.isEmpty()) {
                QueryRoutes.json(exchange, 404, QueryRoutes.error("not found", exchange.getRequestURI().getPath()));
                return;
            }
            Routes.Match found = match.get();
            Runnable run = () -> answer(exchange, () -> found.route().handler().handle(exchange, found.path()));
            try {
                (found.route().pool() == Pool.PROBES ? probes : queries).execute(run);
            } catch (RejectedExecutionException e) {
                QueryRoutes.unavailable(exchange, found.route().pool() == Pool.PROBES ? "too many probes in progress"
                        : "too many queries in progress");
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

    /** A query route's handler, given the query side once attached. */
    private interface QueryHandler {
        void handle(QueryRoutes queries, HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    /** A JSON route: while its data cannot be read completely, 503 with the reason and {@code Retry-After}. */
    private Routes.Handler api(QueryHandler handler) {
        return (exchange, path) -> {
            try {
                handler.handle(attachedQueries(), exchange, path);
            } catch (QueryUnavailable e) {
                QueryRoutes.unavailable(exchange, e.getMessage());
            }
        };
    }

    /** A page route: while its data cannot be read completely, a 503 page saying to reload. */
    private Routes.Handler page(QueryHandler handler) {
        return (exchange, path) -> {
            try {
                handler.handle(attachedQueries(), exchange, path);
            } catch (QueryUnavailable e) {
                QueryRoutes.pageUnavailable(exchange, e.getMessage());
            }
        };
    }

    private QueryRoutes attachedQueries() {
        Attached now = attached;
        if (now == null) {
            throw new QueryUnavailable("the service is starting");
        }
        return now.queries();
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

    private StreamsHealth health() {
        Attached now = attached;
        return now == null ? StreamsHealth.of(null, null) : StreamsHealth.of(now.streams(), now.restores());
    }

    private void live(HttpExchange exchange) throws IOException {
        StreamsHealth health = health();
        boolean live = health.live();
        ObjectNode body = JSON.createObjectNode().put("status", live ? "UP" : "DOWN").put("streams", health.stateName());
        QueryRoutes.json(exchange, live ? 200 : 503, attached == null ? body.put("starting", starting) : body);
    }

    private void ready(HttpExchange exchange) throws IOException {
        StreamsHealth health = health();
        String why = attached == null ? starting : health.whyNotReady();
        ObjectNode body = JSON.createObjectNode().put("status", why == null ? "UP" : "DOWN").put("streams", health.stateName());
        QueryRoutes.json(exchange, why == null ? 200 : 503, why == null ? body : body.put("reason", why));
    }

    private void metrics(HttpExchange exchange) throws IOException {
        Attached now = attached;
        if (now == null) {
            QueryRoutes.unavailable(exchange, "the service is starting");
            return;
        }
        now.domainMeters().refresh();
        now.retryMeters().refresh();
        HttpResponses.send(exchange, 200, PROMETHEUS_TYPE, now.metrics().scrape());
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
