package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.http.HttpApiServer;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.http.health.HealthRoutes;
import io.agentoutcomes.app.http.pages.PageRoutes;
import io.agentoutcomes.app.http.query.AnalyticsQueries;
import io.agentoutcomes.app.http.query.BudgetQueries;
import io.agentoutcomes.app.http.query.JobQueries;
import io.agentoutcomes.app.http.query.ProviderHistory;
import io.agentoutcomes.app.http.query.ProviderQueries;
import io.agentoutcomes.app.http.query.QueryFanOut;
import io.agentoutcomes.app.http.query.QueryRoutes;
import io.agentoutcomes.app.http.query.QueryUnavailable;
import io.agentoutcomes.app.kafka.StreamsProgress;
import io.agentoutcomes.app.metrics.MetricsRoute;
import io.agentoutcomes.app.metrics.MetricsSettings;
import io.agentoutcomes.app.redrive.Redrive;
import io.agentoutcomes.app.redrive.RedriveRoutes;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadPoolExecutor;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The service's HTTP API: one {@link HttpApiServer} answering the routes of health ({@link HealthRoutes}), metrics
 * ({@link MetricsRoute}), pages ({@link PageRoutes}), queries ({@link QueryRoutes}) and redrives ({@link RedriveRoutes}),
 * in that order. It listens from
 * the start; until Kafka Streams is {@link #attach attached} the health routes say what the service is doing and the
 * others answer 503.
 */
public final class HttpApi implements AutoCloseable {
    private final HealthRoutes health = new HealthRoutes();
    private final HttpSecurity security;
    private final HttpApiServer server;
    private final Duration providerSampleInterval;
    private volatile Attached attached;

    /** What answers once Kafka Streams is there. */
    private record Attached(QueryRoutes queries, PageRoutes pages, MetricsRoute metrics, Redrive redrive,
                            ProviderHistory providerHistory) {
    }

    /** Plain HTTP, open to anyone who reaches it ({@link HttpSecurity#none}): for a loopback address. */
    public HttpApi(String host, int port) throws IOException {
        this(host, port, HttpSecurity.none());
    }

    /** Listens on {@code host:port} with the credentials and TLS of {@code security}. */
    public HttpApi(String host, int port, HttpSecurity security) throws IOException {
        this(host, port, security, Duration.ofMillis(AgentOutcomesConfig.DASHBOARD_PROVIDER_SAMPLE_MS_DEFAULT));
    }

    /** As above, sampling the provider gate every {@code providerSampleInterval} for the dashboard's sparklines. */
    public HttpApi(String host, int port, HttpSecurity security, Duration providerSampleInterval) throws IOException {
        List<Route<Endpoint>> routes = new ArrayList<>(health.routes());
        routes.add(MetricsRoute.route(() -> attached().metrics()));
        routes.addAll(PageRoutes.routes(() -> attached().pages()));
        routes.addAll(QueryRoutes.routes(() -> attached().queries()));
        routes.addAll(RedriveRoutes.routes(() -> attached().redrive()));
        this.security = security;
        this.providerSampleInterval = providerSampleInterval;
        this.server = new HttpApiServer(host, port, security, routes);
    }

    /** Says what the service is doing while it starts, before {@link #attach} ({@link HealthRoutes#starting}). */
    public void starting(String what) {
        health.starting(what);
    }

    /**
     * What the API answers from once Kafka Streams is there, made once at the start (as a classifier's
     * {@code TaskKind.Context} is): the instance, reachable by others at {@code self}, its start's progress, the topics
     * of its stores (for queries' freshness), its meters, the redrive of dead letters (null: none) and the settings.
     */
    public record Context(KafkaStreams streams, HostInfo self, StreamsProgress progress, Map<String, Set<String>> storeTopics,
                          PrometheusMeterRegistry meters, Redrive redrive, Settings settings) {
        /** An instance with no progress reported yet, no store topics known, no redrive and default settings. */
        public static Context of(KafkaStreams streams, HostInfo self, PrometheusMeterRegistry meters) {
            return new Context(streams, self, new StreamsProgress(), Map.of(), meters, null, Settings.defaults());
        }
    }

    /** The settings the routes answer by: the analytics' dimensions, the budgets, how the meters are exported. */
    public record Settings(AnalyticsSettings analytics, BudgetSettings budgets, MetricsSettings metrics) {
        public static Settings defaults() {
            return new Settings(AnalyticsSettings.defaults(), BudgetSettings.none(), MetricsSettings.defaults());
        }
    }

    /** Starts answering for a Kafka Streams instance ({@link Context}). */
    public void attach(Context context) {
        Settings settings = context.settings();
        QueryFanOut fanOut = new QueryFanOut(context.streams(), context.self(), context.progress(), context.storeTopics(),
                security);
        JobQueries jobs = new JobQueries(fanOut);
        AnalyticsQueries analytics = new AnalyticsQueries(fanOut, settings.analytics().dimensions());
        MetricsRoute meters = new MetricsRoute(context.meters(), context.streams(), analytics::localTotals,
                settings.analytics(), settings.budgets(), settings.metrics());
        health.attach(context.streams(), context.progress());
        ProviderQueries providers = new ProviderQueries(fanOut);
        BudgetQueries budgets = new BudgetQueries(fanOut, settings.budgets());
        ProviderHistory history = new ProviderHistory(providerSampleInterval).start(providers, Clock.systemUTC());
        attached = new Attached(new QueryRoutes(jobs, analytics, providers, budgets,
                context.self().host() + ":" + context.self().port()),
                new PageRoutes(jobs, analytics, providers, history, budgets), meters, context.redrive(), history);
    }

    private Attached attached() {
        Attached now = attached;
        if (now == null) {
            throw new QueryUnavailable("the service is starting");
        }
        return now;
    }

    /** The base URL, e.g. {@code http://127.0.0.1:8080} ({@code https://} with TLS). */
    public String url() {
        return server.url();
    }

    /** The port listened on (the configured one, or the one picked for port 0). */
    public int port() {
        return server.port();
    }

    /** The query threads (a test fills them to show the probes still answer). */
    ThreadPoolExecutor queryThreads() {
        return server.queryThreads();
    }

    /** The metrics threads (a test fills them to show health still answers). */
    ThreadPoolExecutor metricsThreads() {
        return server.metricsThreads();
    }

    @Override
    public void close() {
        Attached now = attached;
        if (now != null) {
            now.providerHistory().close();
            now.metrics().close();
        }
        server.close();
    }
}
