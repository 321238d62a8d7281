package io.agentoutcomes.app.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.topology.analytics.AnalyticsTopology;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's HTTP server. It listens from the start (its address is the Kafka Streams {@code application.server})
 * and serves, once Kafka Streams is {@link #attach attached}:
 * <ul>
 *   <li>{@code GET /health}: 200 while Kafka Streams is RUNNING, 503 otherwise, with the state;</li>
 *   <li>{@code GET /metrics}: Prometheus text format: the domain meters ({@link DomainMeters}), Kafka Streams' own
 *       metrics (the pipeline's sensors among them: rejected input, duplicates, ignored failures) and the JVM's;</li>
 *   <li>{@code GET /analytics?window=1m|1h|total&by=agent|model|provider}: the analytics aggregates as JSON;</li>
 *   <li>{@code GET /jobs/{jobId}}: the job's replay state as JSON; {@code GET /jobs/{jobId}/completed}: its completed
 *       node ids and cursor; 404 for an unknown job; 503 with {@code Retry-After} while partitions move. Any instance
 *       answers for any job, forwarding to the one that holds it;</li>
 *   <li>{@code GET /jobs}: recent jobs of every instance; {@code GET /ui/jobs}, {@code GET /ui/jobs/{jobId}}: the
 *       pages; {@code GET /}: the dashboard ({@link DashboardPage}).</li>
 * </ul>
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JSON_TYPE = "application/json";
    private static final String HTML_TYPE = "text/html; charset=utf-8";
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final int RECENT_JOBS = 100;

    private final HttpServer server;
    private volatile KafkaStreams streams;
    private volatile JobQueries jobs;
    private volatile AnalyticsQueries analytics;
    private volatile PrometheusMeterRegistry metrics;
    private volatile DomainMeters domainMeters;

    public HttpApiServer(String host, int port) throws IOException {
        this.server = HttpResponses.listen(host, port, "http-api");
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts answering for this Kafka Streams instance, reachable by others at {@code self}, with its metrics. */
    public void attach(KafkaStreams streams, HostInfo self, PrometheusMeterRegistry metrics, int maxLabelSets) {
        this.jobs = new JobQueries(streams, self);
        this.analytics = new AnalyticsQueries(streams, self);
        this.domainMeters = new DomainMeters(metrics, analytics::localTotals, maxLabelSets);
        this.metrics = metrics;
        this.streams = streams;
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
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            List<String> path = Arrays.stream(exchange.getRequestURI().getRawPath().split("/")).filter(s -> !s.isEmpty())
                    .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8)).toList();
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                json(exchange, 405, error("method not allowed", exchange.getRequestMethod()));
                return;
            }
            boolean forwarded = Boolean.parseBoolean(HttpResponses.query(exchange).get(JobQueries.FORWARDED));
            if (path.equals(List.of("health"))) {
                health(exchange);
            } else if (path.equals(List.of("metrics")) && metrics != null) {
                domainMeters.refresh();
                HttpResponses.send(exchange, 200, PROMETHEUS_TYPE, metrics.scrape());
            } else if (jobs == null && !path.isEmpty()) {
                unavailable(exchange, "the service is starting");
            } else if (path.equals(List.of("analytics"))) {
                analytics(exchange);
            } else if (path.equals(List.of("analytics", "export"))) {
                bytes(exchange, analytics.export(windowSize(HttpResponses.query(exchange).getOrDefault("window", "1h"))));
            } else if (path.equals(List.of("jobs"))) {
                ObjectNode body = JSON.createObjectNode();
                jobs.recentJobs(RECENT_JOBS, false).forEach(job -> body.withArray("jobs").add(summary(job)));
                json(exchange, 200, body.has("jobs") ? body : body.set("jobs", JSON.createArrayNode()));
            } else if (path.equals(List.of("jobs", "export"))) {
                bytes(exchange, jobs.exportLocalJobs());
            } else if (path.size() == 2 && path.get(0).equals("jobs")) {
                job(exchange, path.get(1), false, forwarded);
            } else if (path.size() == 3 && path.get(0).equals("jobs") && path.get(2).equals("completed")) {
                job(exchange, path.get(1), true, forwarded);
            } else if (path.isEmpty()) {
                html(exchange, 200, jobs == null ? "<!DOCTYPE html><p>Starting…</p>" : DashboardPage.render(
                        analytics.series(AnalyticsTopology.WindowSize.ONE_MINUTE, AnalyticsQueries.By.MODEL),
                        analytics.series(AnalyticsTopology.WindowSize.TOTAL, AnalyticsQueries.By.AGENT),
                        jobs.recentJobs(10, false)));
            } else if (path.equals(List.of("ui", "jobs"))) {
                html(exchange, 200, TimelinePage.jobs(jobs == null ? List.of() : jobs.recentJobs(RECENT_JOBS, false)));
            } else if (path.size() == 3 && path.get(0).equals("ui") && path.get(1).equals("jobs")) {
                page(exchange, path.get(2), forwarded);
            } else {
                json(exchange, 404, error("not found", exchange.getRequestURI().getPath()));
            }
        } catch (RuntimeException e) {
            LOG.error("HTTP request {} failed", exchange.getRequestURI(), e);
            json(exchange, 500, error("internal error", e.toString()));
        }
    }

    private void health(HttpExchange exchange) throws IOException {
        KafkaStreams.State state = streams == null ? null : streams.state();
        boolean up = state == KafkaStreams.State.RUNNING;
        json(exchange, up ? 200 : 503, JSON.createObjectNode().put("status", up ? "UP" : "DOWN")
                .put("streams", state == null ? "NOT_STARTED" : state.name()));
    }

    private void job(HttpExchange exchange, String jobId, boolean completedOnly, boolean forwarded) throws IOException {
        JobQueries.Answer answer = jobs.job(jobId, exchange.getRequestURI().getRawPath(), forwarded);
        if (answer instanceof JobQueries.Found found) {
            json(exchange, 200, completedOnly ? completed(found.state()) : (ObjectNode) AvroJson.toJson(found.state()));
        } else if (answer instanceof JobQueries.NotFound notFound) {
            json(exchange, 404, error("job not found", notFound.jobId()));
        } else if (answer instanceof JobQueries.Relayed relayed) {
            retryAfterOn503(exchange, relayed.status());
            HttpResponses.send(exchange, relayed.status(), JSON_TYPE, relayed.body());
        } else {
            unavailable(exchange, ((JobQueries.Unavailable) answer).reason());
        }
    }

    private void page(HttpExchange exchange, String jobId, boolean forwarded) throws IOException {
        JobQueries.Answer answer = jobs.job(jobId, exchange.getRequestURI().getRawPath(), forwarded);
        if (answer instanceof JobQueries.Found found) {
            html(exchange, 200, TimelinePage.job(found.state()));
        } else if (answer instanceof JobQueries.Relayed relayed) {
            retryAfterOn503(exchange, relayed.status());
            html(exchange, relayed.status(), relayed.body());
        } else if (answer instanceof JobQueries.NotFound) {
            html(exchange, 404, "<!DOCTYPE html><p>No job " + TimelinePage.escape(jobId)
                    + ". <a href=\"/ui/jobs\">All jobs</a></p>");
        } else {
            exchange.getResponseHeaders().set("Retry-After", "1");
            html(exchange, 503, "<!DOCTYPE html><p>Partitions are being reassigned between instances; "
                    + "reload in a second.</p>");
        }
    }

    private static void retryAfterOn503(HttpExchange exchange, int status) {
        if (status == 503) {
            exchange.getResponseHeaders().set("Retry-After", "1");
        }
    }

    /** {@code GET /analytics?window=1m|1h|total&by=agent|model|provider}. */
    private void analytics(HttpExchange exchange) throws IOException {
        Map<String, String> query = HttpResponses.query(exchange);
        String window = query.getOrDefault("window", "1h");
        String by = query.getOrDefault("by", "agent");
        AnalyticsQueries.By dimension;
        AnalyticsTopology.WindowSize size;
        try {
            size = windowSize(window);
            dimension = AnalyticsQueries.By.valueOf(by.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            json(exchange, 400, error("bad request", "window must be 1m, 1h or total and by agent, model or provider; got window="
                    + window + ", by=" + by));
            return;
        }
        ObjectNode body = JSON.createObjectNode().put("window", size.label()).put("by", by.toLowerCase(java.util.Locale.ROOT));
        com.fasterxml.jackson.databind.node.ArrayNode series = body.putArray("series");
        for (AnalyticsQueries.Series group : analytics.series(size, dimension)) {
            ObjectNode entry = series.addObject().put("name", group.name());
            com.fasterxml.jackson.databind.node.ArrayNode points = entry.putArray("points");
            for (io.agentoutcomes.avro.AgentMetrics point : group.points()) {
                ObjectNode json = (ObjectNode) AvroJson.toJson(point);
                json.remove(List.of("durationSketch", "agentId", "model", "provider"));
                points.add(json);
            }
        }
        json(exchange, 200, body);
    }

    private static AnalyticsTopology.WindowSize windowSize(String label) {
        return AnalyticsTopology.WindowSize.of(label);
    }

    private static ObjectNode completed(JobReplayState state) {
        ObjectNode body = JSON.createObjectNode().put("jobId", state.getJobId());
        state.getCompletedNodeIds().forEach(body.putArray("completedNodeIds")::add);
        if (!body.has("completedNodeIds")) {
            body.putArray("completedNodeIds");
        }
        return body.put("cursorNode", state.getCursorNode());
    }

    private static ObjectNode summary(JobReplayState job) {
        return JSON.createObjectNode().put("jobId", job.getJobId()).put("status", job.getStatus().name())
                .put("completed", job.getCompletedNodeIds().size()).put("nodes", job.getNodes().size())
                .put("updatedAt", job.getUpdatedAt() == null ? null : job.getUpdatedAt().toString());
    }

    private static void unavailable(HttpExchange exchange, String reason) throws IOException {
        exchange.getResponseHeaders().set("Retry-After", "1");
        json(exchange, 503, error("unavailable", reason).put("retryAfterSeconds", 1)
                .put("advice", "partitions are being reassigned between instances; retry the same request shortly"));
    }

    private static ObjectNode error(String error, String detail) {
        return JSON.createObjectNode().put("error", error).put("detail", detail);
    }

    private static void json(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        HttpResponses.send(exchange, status, JSON_TYPE, body.toString());
    }

    private static void html(HttpExchange exchange, int status, String body) throws IOException {
        HttpResponses.send(exchange, status, HTML_TYPE, body);
    }

    private static void bytes(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
        exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
        exchange.close();
    }
}
