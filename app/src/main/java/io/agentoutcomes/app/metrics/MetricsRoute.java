package io.agentoutcomes.app.metrics;

import io.agentoutcomes.app.http.HttpApiServer;
import io.agentoutcomes.app.http.HttpApiServer.Access;
import io.agentoutcomes.app.http.HttpApiServer.Endpoint;
import io.agentoutcomes.app.http.HttpApiServer.Pool;
import io.agentoutcomes.app.http.HttpExchanges;
import io.agentoutcomes.app.http.Routes.Route;
import io.agentoutcomes.app.http.query.QueryUnavailable;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code GET /metrics}, in Prometheus text format: the domain meters ({@link DomainMeters}, {@link RetryScheduleMeters},
 * {@link ProviderGateMeters}, {@link BudgetMeters}, {@link RejectionMeters}, {@link ClockSkewMeters}), Kafka Streams' own metrics (the pipeline's sensors among them: rejected input, duplicates,
 * ignored failures; {@link StreamsMetricsBinding}) and the JVM's, all on one registry.
 */
public final class MetricsRoute {
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final DomainMeters domainMeters;
    private final RetryScheduleMeters retryMeters;
    private final ProviderGateMeters providerMeters;
    private final BudgetMeters budgetMeters;

    /** Registers the domain meters of this Kafka Streams instance; {@code totals}: its analytics' running totals. */
    public MetricsRoute(PrometheusMeterRegistry registry, KafkaStreams streams, Supplier<List<AgentMetrics>> totals,
                        AnalyticsSettings analytics, BudgetSettings budgets) {
        this.registry = registry;
        RejectionMeters.register(registry, streams);
        PricingMeters.register(registry, streams);
        ClockSkewMeters.register(registry, streams);
        this.domainMeters = new DomainMeters(registry, totals, analytics.maxLabelSets(), analytics.dimensions());
        this.retryMeters = new RetryScheduleMeters(registry, streams);
        this.providerMeters = new ProviderGateMeters(registry, streams);
        this.budgetMeters = new BudgetMeters(registry, streams, budgets);
    }

    /** The route, answered by {@code attached} once the service has it (until then it throws {@link QueryUnavailable}). */
    public static Route<Endpoint> route(Supplier<MetricsRoute> attached) {
        return HttpApiServer.get("/metrics", Pool.PROBES, Access.METRICS, (exchange, path) -> {
            MetricsRoute metrics;
            try {
                metrics = attached.get();
            } catch (QueryUnavailable e) {
                HttpExchanges.unavailable(exchange, e.getMessage());
                return;
            }
            HttpExchanges.send(exchange, 200, PROMETHEUS_TYPE, metrics.scrape());
        });
    }

    /** The meters read afresh, as Prometheus text. */
    private String scrape() {
        domainMeters.refresh();
        retryMeters.refresh();
        providerMeters.refresh();
        budgetMeters.refresh();
        return registry.scrape();
    }
}
