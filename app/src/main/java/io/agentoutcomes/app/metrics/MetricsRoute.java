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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code GET /metrics}, in Prometheus text format: the domain meters ({@link DomainMeters} and the GenAI conventions'
 * {@link GenAiClientMeters} read from the same totals, {@link RetryScheduleMeters},
 * {@link ProviderGateMeters}, {@link BudgetMeters}, {@link RejectionMeters}, {@link ClockSkewMeters}), Kafka Streams'
 * own metrics (the pipeline's sensors among them: rejected input, duplicates, ignored failures; {@link KafkaStreamsMeters},
 * as finely as {@code metrics.kafka.detail} says) and the JVM's, all on one registry.
 */
public final class MetricsRoute implements AutoCloseable {
    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final DomainMeters domainMeters;
    private final GenAiClientMeters genAiMeters;
    private final RetryScheduleMeters retryMeters;
    private final ProviderGateMeters providerMeters;
    private final BudgetMeters budgetMeters;
    private final KafkaStreamsMeters kafkaMeters;
    /** The OTLP push, if {@code metrics.otlp.url} is set. */
    private final OtlpPush push;
    /** The scrape under way, if any. */
    private final AtomicReference<CompletableFuture<String>> inFlight = new AtomicReference<>();

    /** Registers the domain meters of this Kafka Streams instance; {@code totals}: its analytics' running totals. */
    public MetricsRoute(PrometheusMeterRegistry registry, KafkaStreams streams, Supplier<List<AgentMetrics>> totals,
                        AnalyticsSettings analytics, BudgetSettings budgets, MetricsSettings settings) {
        this.registry = registry;
        this.kafkaMeters = new KafkaStreamsMeters(registry, streams::metrics, settings.kafkaDetail());
        RejectionMeters.register(registry, streams);
        PricingMeters.register(registry, streams);
        ClockSkewMeters.register(registry, streams);
        this.domainMeters = new DomainMeters(registry, totals, analytics.maxLabelSets(), analytics.dimensions());
        this.genAiMeters = new GenAiClientMeters(registry);
        this.retryMeters = new RetryScheduleMeters(registry, streams);
        this.providerMeters = new ProviderGateMeters(registry, streams);
        this.budgetMeters = new BudgetMeters(registry, streams, budgets);
        this.push = settings.otlp().map(otlp -> OtlpPush.start(otlp, this::scrape)).orElse(null);
        genAiMeters.pushTo(push);
    }

    /** Pushes a last time, if it pushes, and stops. */
    @Override
    public void close() {
        if (push != null) {
            push.close();
        }
    }

    /** The route, answered by {@code attached} once the service has it (until then it throws {@link QueryUnavailable}). */
    public static Route<Endpoint> route(Supplier<MetricsRoute> attached) {
        return HttpApiServer.get("/metrics", Pool.METRICS, Access.METRICS, (exchange, path) -> {
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

    /**
     * The meters read afresh, as Prometheus text. One scrape is made at a time: scrapes that arrive while one is under
     * way wait for it and answer its text, so concurrent scrapers cost one scrape and never register a meter twice.
     */
    String scrape() {
        CompletableFuture<String> mine = new CompletableFuture<>();
        CompletableFuture<String> running = inFlight.compareAndExchange(null, mine);
        if (running != null) {
            return running.join();
        }
        try {
            mine.complete(readAll());
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.set(null);
        }
        return mine.join();
    }

    private String readAll() {
        domainMeters.refresh().ifPresent(genAiMeters::refresh);
        retryMeters.refresh();
        providerMeters.refresh();
        budgetMeters.refresh();
        kafkaMeters.refresh();
        return registry.scrape();
    }
}
