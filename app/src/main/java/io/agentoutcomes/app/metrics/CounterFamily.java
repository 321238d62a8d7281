package io.agentoutcomes.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * Micrometer function counters of one name whose label sets come and go with the totals: each reads the value the
 * last {@link #set} gave its label set; a label set no longer there is removed from the registry.
 */
final class CounterFamily {
    private final PrometheusMeterRegistry registry;
    private final String name;
    private final String description;
    private final Map<Tags, Reading> live = new HashMap<>();

    private static final class Reading {
        volatile double value;
        FunctionCounter counter;
    }

    CounterFamily(PrometheusMeterRegistry registry, String name, String description) {
        this.registry = registry;
        this.name = name;
        this.description = description;
    }

    synchronized void set(Map<Tags, Double> values) {
        live.entrySet().removeIf(entry -> {
            boolean gone = !values.containsKey(entry.getKey());
            if (gone) {
                registry.remove(entry.getValue().counter);
            }
            return gone;
        });
        values.forEach((tags, value) -> live.computeIfAbsent(tags, t -> {
            Reading reading = new Reading();
            reading.counter = FunctionCounter.builder(name, reading, r -> r.value).tags(t).description(description)
                    .register(registry);
            return reading;
        }).value = value);
    }
}
