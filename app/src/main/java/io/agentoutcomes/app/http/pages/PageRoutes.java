package io.agentoutcomes.app.http.pages;

import com.sun.net.httpserver.HttpExchange;
import io.agentoutcomes.app.http.HttpApiServer;
import io.agentoutcomes.app.http.HttpApiServer.Access;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpApiServer.Pool;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.http.query.AnalyticsQueries;
import io.agentoutcomes.app.http.query.BudgetQueries;
import io.agentoutcomes.app.http.query.JobAnswer;
import io.agentoutcomes.app.http.query.JobQueries;
import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.app.http.query.ProviderQueries;
import io.agentoutcomes.app.http.query.QueryRoutes;
import io.agentoutcomes.app.http.query.QueryUnavailable;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.WindowSize;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The page routes of the HTTP API: the dashboard ({@link DashboardPage}), the recent jobs and a job's timeline
 * ({@link TimelinePage}); while their data cannot be read completely, a 503 page saying to reload.
 */
public final class PageRoutes {
    private final JobQueries jobs;
    private final AnalyticsQueries analytics;
    private final ProviderQueries providers;
    private final ProviderHistory history;
    private final BudgetQueries budgets;

    public PageRoutes(JobQueries jobs, AnalyticsQueries analytics, ProviderQueries providers, ProviderHistory history,
                      BudgetQueries budgets) {
        this.providers = providers;
        this.history = history;
        this.budgets = budgets;
        this.jobs = jobs;
        this.analytics = analytics;
    }

    /** The routes, answered by {@code attached} once the service has it (until then it throws {@link QueryUnavailable}). */
    public static List<Route<Endpoint>> routes(Supplier<PageRoutes> attached) {
        return List.of(
                page("/", attached, (pages, exchange, path) -> pages.dashboard(exchange)),
                page("/ui/jobs", attached, (pages, exchange, path) -> pages.jobsPage(exchange)),
                page("/ui/jobs/{id}", attached, (pages, exchange, path) -> pages.jobPage(exchange, path.get("id"))));
    }

    /** A page route's handler, given the pages once attached. */
    private interface Handler {
        void handle(PageRoutes pages, HttpExchange exchange, Map<String, String> path) throws IOException;
    }

    /** A page route: while its data cannot be read completely, a 503 page saying to reload. */
    private static Route<Endpoint> page(String pattern, Supplier<PageRoutes> attached, Handler handler) {
        return HttpApiServer.get(pattern, Pool.QUERIES, Access.CREDENTIALS, (exchange, path) -> {
            try {
                handler.handle(attached.get(), exchange, path);
            } catch (QueryUnavailable e) {
                exchange.getResponseHeaders().set("Retry-After", "1");
                HttpExchanges.html(exchange, 503, "<!DOCTYPE html><p>Not available right now: " + Html.escape(e.getMessage())
                        + ". Reload in a second.</p>");
            }
        });
    }

    /** {@code GET /}: the dashboard. */
    private void dashboard(HttpExchange exchange) throws IOException {
        List<AgentMetrics> totals = analytics.all(WindowSize.TOTAL);
        HttpExchanges.html(exchange, 200, DashboardPage.render(analytics.series(WindowSize.ONE_MINUTE, Dimension.MODEL),
                AnalyticsQueries.group(totals, Dimension.AGENT),
                analytics.groupsBy(Dimension.TENANT) ? AnalyticsQueries.group(totals, Dimension.TENANT) : List.of(),
                jobs.recentJobs(10, null).jobs(), providers.scopes(), history, budgets.spend(), budgets.settings()));
    }

    /** {@code GET /ui/jobs}: the most recently updated jobs. */
    private void jobsPage(HttpExchange exchange) throws IOException {
        HttpExchanges.html(exchange, 200, TimelinePage.jobs(jobs.recentJobs(QueryRoutes.DEFAULT_JOBS, null).jobs()));
    }

    /** {@code GET /ui/jobs/{id}}: a job's timeline, here or relayed from the instance holding it. */
    private void jobPage(HttpExchange exchange, String jobId) throws IOException {
        JobAnswer answer = jobs.job(jobId, exchange.getRequestURI().getRawPath(), QueryRoutes.forwarded(exchange));
        if (answer instanceof JobAnswer.Found found) {
            HttpExchanges.html(exchange, 200, TimelinePage.job(found.state()));
        } else if (answer instanceof JobAnswer.Relayed relayed) {
            if (relayed.status() == 503) {
                exchange.getResponseHeaders().set("Retry-After", "1");
            }
            HttpExchanges.html(exchange, relayed.status(), relayed.body());
        } else if (answer instanceof JobAnswer.NotFound) {
            HttpExchanges.html(exchange, 404, "<!DOCTYPE html><p>No job " + Html.escape(jobId)
                    + ". <a href=\"/ui/jobs\">All jobs</a></p>");
        } else {
            exchange.getResponseHeaders().set("Retry-After", "1");
            HttpExchanges.html(exchange, 503, "<!DOCTYPE html><p>Partitions are being reassigned between instances; "
                    + "reload in a second.</p>");
        }
    }
}
