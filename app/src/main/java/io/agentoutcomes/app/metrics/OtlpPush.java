package io.agentoutcomes.app.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.registry.otlp.AggregationTemporality;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.micrometer.registry.otlp.PreAggregatedHistogram;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The GenAI conventions' client metrics pushed over OTLP/HTTP by Micrometer's OTLP registry ({@code metrics.otlp.*}):
 * {@code gen_ai.client.token.usage} and {@code gen_ai.client.operation.duration} as cumulative explicit-bucket
 * histograms under their OpenTelemetry names and attributes, the same series {@code GET /metrics} shows. Before each
 * push the meters are read afresh ({@code refresh}: a scrape, so pushes and scrapes never read the totals at once).
 */
public final class OtlpPush implements AutoCloseable {
    private final Registry registry;
    private final Map<Meter.Id, PreAggregatedHistogram> live = new HashMap<>();

    private OtlpPush(Registry registry) {
        this.registry = registry;
    }

    /** Starts pushing every {@code settings.step()}; {@code refresh} reads the meters afresh before each push. */
    public static OtlpPush start(OtlpSettings settings, Runnable refresh) {
        Registry registry = new Registry(config(settings), refresh);
        registry.config().namingConvention(NamingConvention.identity);
        return new OtlpPush(registry);
    }

    private static OtlpConfig config(OtlpSettings settings) {
        return new OtlpConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String url() {
                return settings.url();
            }

            @Override
            public Duration step() {
                return settings.step();
            }

            @Override
            public Map<String, String> headers() {
                return settings.headers();
            }

            @Override
            public Map<String, String> resourceAttributes() {
                return settings.resourceAttributes();
            }

            @Override
            public AggregationTemporality aggregationTemporality() {
                return AggregationTemporality.CUMULATIVE;
            }
        };
    }

    /** The series as they stand; a series no longer among them leaves the push. */
    synchronized void set(List<GenAiSeries> series) {
        Map<Meter.Id, PreAggregatedHistogram> next = new HashMap<>();
        for (GenAiSeries one : series) {
            Tags tags = Tags.empty();
            for (Map.Entry<String, String> attribute : one.attributes().entrySet()) {
                tags = tags.and(attribute.getKey(), attribute.getValue());
            }
            PreAggregatedHistogram histogram = (PreAggregatedHistogram) DistributionSummary.builder(one.otelName())
                    .tags(tags).baseUnit(one.unit())
                    .register(registry);
            histogram.set(one.bounds(), one.counts(), one.sum());
            next.put(histogram.getId(), histogram);
        }
        live.forEach((id, histogram) -> {
            if (!next.containsKey(id)) {
                registry.remove(histogram);
            }
        });
        live.clear();
        live.putAll(next);
    }

    /** Pushes a last time, then stops. */
    @Override
    public void close() {
        registry.close();
    }

    /** Micrometer's OTLP registry, its summaries pre-aggregated and read afresh before each push. */
    private static final class Registry extends OtlpMeterRegistry {
        private final Runnable refresh;

        Registry(OtlpConfig config, Runnable refresh) {
            // the registry starts pushing on its own thread as it is made, the first push a step later
            super(config, Clock.SYSTEM, runnable -> {
                Thread thread = new Thread(runnable, "otlp-metrics-push");
                thread.setDaemon(true);
                return thread;
            });
            this.refresh = refresh;
        }

        @Override
        protected void publish() {
            if (refresh != null) {
                refresh.run();
            }
            super.publish();
        }

        @Override
        protected DistributionSummary newDistributionSummary(Meter.Id id, DistributionStatisticConfig config, double scale) {
            return new PreAggregatedHistogram(id, TimeUnit.MILLISECONDS.toNanos(clock.wallTime()));
        }
    }
}
