package io.agentoutcomes.app.http.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpApiServer;
import io.agentoutcomes.app.http.HttpApiServer.Access;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpApiServer.Pool;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.HttpExchanges.BadRequest;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.json.AvroJson;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.WindowSize;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The query routes of the HTTP API: jobs and analytics as JSON, and their exports for other instances, each answered
 * completely or with 503 and {@code Retry-After} ({@link QueryUnavailable}); a bad request is 400 with its reason.
 */
public final class QueryRoutes {
    /** Jobs per page of {@code GET /jobs} and {@code /ui/jobs} unless asked otherwise, and the most one may ask for. */
    public static final int DEFAULT_JOBS = 100;
    static final int MAX_JOBS = 500;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Groups {@code /analytics} answers by default, the most expensive first; the rest are merged as {@code _other}. */
    static final int DEFAULT_SERIES = 100;
    /** The most groups one {@code /analytics} answer has ({@code limit}). */
    static final int MAX_SERIES = 1_000;
    /**
     * What every job and analytics answer reads: the state stores as the stream threads left them, including work of
     * the transaction under way, which a crash aborts and the instance that takes over does again (the final values
     * are exact; an answer between may show a count a crash then takes back). Said in a header of every such answer,
     * and in the body of {@code /analytics} and {@code /jobs}, with Kafka's name for it.
     */
    static final String ISOLATION_HEADER = "X-Isolation-Level";
    static final String ISOLATION = "read_uncommitted";

    /** Names, on a job answered from this instance's own store, the instance (its {@code application.server}). */
    static final String ANSWERED_BY_HEADER = "X-Answered-By";

    private final JobQueries jobs;
    private final AnalyticsQueries analytics;
    private final ProviderQueries providers;
    private final BudgetQueries budgets;
    private final String self;

    /** {@code self}: this instance's {@code application.server}, named on the jobs it answers. */
    public QueryRoutes(JobQueries jobs, AnalyticsQueries analytics, ProviderQueries providers, BudgetQueries budgets,
                       String self) {
        this.budgets = budgets;
        this.jobs = jobs;
        this.analytics = analytics;
        this.providers = providers;
        this.self = self;
    }

    /** The routes, answered by {@code attached} once the service has it (until then it throws {@link QueryUnavailable}). */
    public static List<Route<Endpoint>> routes(Supplier<QueryRoutes> attached) {
        return List.of(
                api("/jobs", attached, (queries, exchange, path) -> queries.jobList(exchange)),
                api("/jobs/export", attached, (queries, exchange, path) -> queries.jobsExport(exchange)),
                api("/jobs/{id}", attached, (queries, exchange, path) -> queries.job(exchange, path.get("id"), false)),
                api("/jobs/{id}/completed", attached, (queries, exchange, path) -> queries.job(exchange, path.get("id"), true)),
                api("/analytics", attached, (queries, exchange, path) -> queries.analytics(exchange)),
                api("/analytics/export", attached, (queries, exchange, path) -> queries.analyticsExport(exchange)),
                api("/providers", attached, (queries, exchange, path) -> queries.providers(exchange)),
                api("/providers/export", attached, (queries, exchange, path) -> bytes(exchange, queries.providers.export())),
                api("/budgets", attached, (queries, exchange, path) -> queries.budgets(exchange)),
                api("/budgets/export", attached, (queries, exchange, path) -> bytes(exchange, queries.budgets.export())));
    }

    /** A query route's handler, given the query side once attached. */
    private interface Handler {
        void handle(QueryRoutes queries, HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    /** A JSON route: while its data cannot be read completely, 503 with the reason and {@code Retry-After}. */
    private static Route<Endpoint> api(String pattern, Supplier<QueryRoutes> attached, Handler handler) {
        return HttpApiServer.get(pattern, Pool.QUERIES, Access.CREDENTIALS, (exchange, path) -> {
            try {
                handler.handle(attached.get(), exchange, path);
            } catch (QueryUnavailable e) {
                HttpExchanges.unavailable(exchange, e.getMessage());
            }
        });
    }

    /** {@code GET /jobs/export?limit=&after=}: this instance's part of a job list page, for another instance. */
    void jobsExport(HttpExchange exchange) throws IOException {
        Map<String, String> query = HttpExchanges.query(exchange);
        bytes(exchange, jobs.exportRecentJobs(limit(query), after(query)));
    }

    /** {@code GET /analytics/export?window=}: this instance's aggregates, for another instance. */
    void analyticsExport(HttpExchange exchange) throws IOException {
        bytes(exchange, analytics.export(windowSize(HttpExchanges.query(exchange).getOrDefault("window", "1h"))));
    }

    /**
     * {@code GET /providers}: every pacing scope the provider gate keeps, from every instance: its circuit (and since
     * when), the evidence of its sliding window, its request budgets and the retries it holds; and the retries moved to
     * a fallback, both ways ({@code fallbacksReceived} as the state keeps it, {@code fallbacksMoved} turned round).
     */
    void providers(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("isolationLevel", ISOLATION);
        ArrayNode scopes = body.putArray("providers");
        List<ProviderState> states = providers.scopes();
        Map<String, List<FallbackCount>> moved = ProviderQueries.movedAway(states);
        for (ProviderState state : states) {
            ObjectNode scope = (ObjectNode) AvroJson.toJson(state);
            scope.set("fallbacksMoved", AvroJson.toJson(moved.getOrDefault(ProviderQueries.name(state.getProvider(),
                    state.getModel()), List.of())));
            scopes.add(scope);
        }
        uncommitted(exchange);
        HttpExchanges.json(exchange, 200, body);
    }

    /** {@code GET /budgets}: every budget value's spend, current and previous period, from every instance. */
    void budgets(HttpExchange exchange) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("isolationLevel", ISOLATION);
        ArrayNode values = body.putArray("budgets");
        budgets.spend().forEach(state -> values.add(AvroJson.toJson(state)));
        uncommitted(exchange);
        HttpExchanges.json(exchange, 200, body);
    }

    /** Whether another instance forwarded this request ({@link QueryFanOut#FORWARDED}). */
    public static boolean forwarded(HttpExchange exchange) {
        return Boolean.parseBoolean(HttpExchanges.query(exchange).get(QueryFanOut.FORWARDED));
    }

    /** {@code GET /jobs?limit=&after=}: a page of the most recently updated jobs, and the cursor of the next. */
    void jobList(HttpExchange exchange) throws IOException {
        Map<String, String> query = HttpExchanges.query(exchange);
        JobQueries.Page page = jobs.recentJobs(limit(query), after(query));
        ObjectNode body = JSON.createObjectNode();
        ArrayNode list = body.putArray("jobs");
        page.jobs().forEach(job -> list.add(summary(job)));
        uncommitted(exchange);
        HttpExchanges.json(exchange, 200, body.put("next", page.next()).put("isolationLevel", ISOLATION));
    }

    private static int limit(Map<String, String> query) {
        String text = query.get("limit");
        if (text == null) {
            return DEFAULT_JOBS;
        }
        try {
            int limit = Integer.parseInt(text.trim());
            if (limit >= 1 && limit <= MAX_JOBS) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadRequest("limit must be a whole number from 1 to " + MAX_JOBS + "; got " + text);
    }

    private static String after(Map<String, String> query) {
        String after = query.get("after");
        if (after != null && !JobQueries.isCursor(after)) {
            throw new BadRequest("after must be the 'next' value of a previous page; got " + after);
        }
        return after;
    }

    /** {@code GET /jobs/{id}} and {@code /jobs/{id}/completed}: here, or relayed from the instance holding it. */
    void job(HttpExchange exchange, String jobId, boolean completedOnly) throws IOException {
        JobAnswer answer = jobs.job(jobId, exchange.getRequestURI().getRawPath(), forwarded(exchange));
        if (answer instanceof JobAnswer.Found found) {
            uncommitted(exchange);
            exchange.getResponseHeaders().set(ANSWERED_BY_HEADER, self);
            HttpExchanges.json(exchange, 200, completedOnly ? completed(found.state()) : (ObjectNode) AvroJson.toJson(found.state()));
        } else if (answer instanceof JobAnswer.NotFound notFound) {
            HttpExchanges.json(exchange, 404, HttpExchanges.error("job not found", notFound.jobId()));
        } else if (answer instanceof JobAnswer.Relayed relayed) {
            retryAfterOn503(exchange, relayed.status());
            if (relayed.status() == 200) {
                uncommitted(exchange);
            }
            HttpExchanges.json(exchange, relayed.status(), relayed.body());
        } else {
            HttpExchanges.unavailable(exchange, ((JobAnswer.Unavailable) answer).reason());
        }
    }

    /** {@code GET /analytics?window=1m|1h|total&by=<dimension>} ({@link Dimension}). */
    void analytics(HttpExchange exchange) throws IOException {
        Map<String, String> query = HttpExchanges.query(exchange);
        String window = query.getOrDefault("window", "1h");
        String by = query.getOrDefault("by", "agent");
        Dimension dimension;
        WindowSize size;
        try {
            size = WindowSize.of(window);
            dimension = Dimension.of(by);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("window must be 1m, 1h or total and by " + Dimension.labels() + "; got window="
                    + window + ", by=" + by);
        }
        if (!analytics.groupsBy(dimension)) {
            throw new BadRequest("by=" + dimension.label() + ": the analytics windows are not keyed by "
                    + dimension.label() + "; add it to analytics.dimensions (docs/analytics.md#dimensions)");
        }
        int limit = limit(query.getOrDefault("limit", String.valueOf(DEFAULT_SERIES)));
        List<AnalyticsQueries.Series> groups = analytics.series(size, dimension);
        ObjectNode body = JSON.createObjectNode().put("window", size.label()).put("by", dimension.label())
                .put("isolationLevel", ISOLATION).put("groups", groups.size()).put("limit", limit);
        ArrayNode series = body.putArray("series");
        for (AnalyticsQueries.Series group : AnalyticsQueries.top(groups, limit)) {
            ObjectNode entry = series.addObject().put("name", group.name());
            ArrayNode points = entry.putArray("points");
            for (AgentMetrics point : group.points()) {
                ObjectNode json = (ObjectNode) AvroJson.toJson(point);
                json.remove("durationSketch");
                json.remove("genAiHistograms");
                Arrays.stream(Dimension.values()).forEach(d -> json.remove(d.fieldName()));
                points.add(json);
            }
        }
        uncommitted(exchange);
        HttpExchanges.json(exchange, 200, body);
    }

    /** {@code limit} of /analytics: 1..{@value #MAX_SERIES} groups (then {@code _other}). */
    private static int limit(String text) {
        try {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= MAX_SERIES) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BadRequest("limit must be a whole number from 1 to " + MAX_SERIES + "; got " + text);
    }

    private static void uncommitted(HttpExchange exchange) {
        exchange.getResponseHeaders().set(ISOLATION_HEADER, ISOLATION);
    }

    private static WindowSize windowSize(String label) {
        try {
            return WindowSize.of(label);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("window must be 1m, 1h or total; got " + label);
        }
    }

    private static ObjectNode completed(JobReplayState state) {
        ObjectNode body = JSON.createObjectNode().put("jobId", state.getJobId());
        ArrayNode completed = body.putArray("completedNodeIds");
        state.getCompletedNodeIds().forEach(completed::add);
        return body.put("cursorNode", state.getCursorNode());
    }

    private static ObjectNode summary(JobReplayState job) {
        return JSON.createObjectNode().put("jobId", job.getJobId()).put("status", job.getStatus().name())
                .put("completed", job.getCompletedNodeIds().size()).put("nodes", job.getNodes().size())
                .put("updatedAt", job.getUpdatedAt() == null ? null : Instant.ofEpochMilli(job.getUpdatedAt()).toString());
    }

    private static void retryAfterOn503(HttpExchange exchange, int status) {
        if (status == 503) {
            exchange.getResponseHeaders().set("Retry-After", "1");
        }
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
