package io.agentoutcomes.app.metrics;

import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The service's one Prometheus registry, with the JVM's meters (memory, threads, processor, GC) bound, and without
 * Kafka Streams' binder's copies of the rejection, pricing and clock-skew sensors ({@link RejectionMeters#binderCopies},
 * {@link PricingMeters#binderCopies}, {@link ClockSkewMeters#binderCopies}).
 */
public final class ServiceMeterRegistry implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    public ServiceMeterRegistry() {
        registry.config().meterFilter(RejectionMeters.binderCopies()).meterFilter(PricingMeters.binderCopies())
                .meterFilter(ClockSkewMeters.binderCopies());
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Stops the GC listener, then closes the registry. */
    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
