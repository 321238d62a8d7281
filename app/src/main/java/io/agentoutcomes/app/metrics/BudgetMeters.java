package io.agentoutcomes.app.metrics;

import io.agentoutcomes.avro.BudgetPeriodSpend;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.budget.BudgetStores;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The budgets seen from their stores (this instance's partitions): {@code agent_outcomes_budget_alerts_total{budget,
 * threshold}}, the alerts sent (counted in the changelogged store {@value BudgetStores#ALERT_COUNTS_STORE} in the
 * alert's own transaction, so a restart neither loses nor repeats a count), a series for every declared budget and
 * threshold from the start; {@code agent_outcomes_budget_spend_usd{budget,value}}, each value's spend in its latest
 * period (at most {@value #MAX_SPEND_SERIES} values); {@code agent_outcomes_budget_limit_usd{budget}}. Like the provider
 * gate's meters, the counts follow their partitions between instances: Prometheus sums the instances.
 */
public final class BudgetMeters {
    static final int MAX_SPEND_SERIES = 1_000;
    private final MeterRegistry registry;
    private final KafkaStreams streams;
    private final BudgetSettings settings;
    private final Map<String, AtomicLong> alerts = new HashMap<>();
    private final Map<String, AtomicReference<Double>> spend = new HashMap<>();

    public BudgetMeters(MeterRegistry registry, KafkaStreams streams, BudgetSettings settings) {
        this.registry = registry;
        this.streams = streams;
        this.settings = settings;
        for (Budget budget : settings.budgets().values()) {
            Gauge.builder("agent_outcomes_budget_limit_usd", budget.limitUsd(), Number::doubleValue).tags("budget", budget.name())
                    .description("A budget's limit per period, USD").register(registry);
            for (int threshold : budget.thresholds()) {
                AtomicLong count = new AtomicLong();
                alerts.put(budget.name() + Budget.SEPARATOR + threshold, count);
                FunctionCounter.builder("agent_outcomes_budget_alerts", count, AtomicLong::get)
                        .tags("budget", budget.name(), "threshold", Integer.toString(threshold))
                        .description("Budget thresholds crossed, one alert per budget value and period (budget-alerts)")
                        .register(registry);
            }
        }
    }

    /**
     * Reads the stores again; call before a scrape. While they cannot be read the meters keep their last values. One
     * refresh at a time: concurrent scrapes must not register a value's gauge twice.
     */
    public synchronized void refresh() {
        if (!settings.enabled() || streams.state() != KafkaStreams.State.RUNNING) {
            return;
        }
        Map<String, Long> counted = new HashMap<>();
        this.<Long>read(BudgetStores.ALERT_COUNTS_STORE, (key, count) -> counted.merge(key, count, Long::sum));
        counted.forEach((key, count) -> {
            AtomicLong meter = alerts.get(key);
            if (meter != null) {
                meter.set(count);
            }
        });
        this.<BudgetState>read(BudgetStores.SPEND_STORE, (key, state) -> {
            if (state.getPeriods().isEmpty() || !spend.containsKey(key) && spend.size() >= MAX_SPEND_SERIES) {
                return;
            }
            BudgetPeriodSpend latest = state.getPeriods().get(state.getPeriods().size() - 1);
            spend.computeIfAbsent(key, k -> register(state)).set(Money.toDecimal(latest.getSpend()).doubleValue());
        });
    }

    private AtomicReference<Double> register(BudgetState state) {
        AtomicReference<Double> value = new AtomicReference<>(0.0);
        Gauge.builder("agent_outcomes_budget_spend_usd", value, AtomicReference::get)
                .tags(Tags.of("budget", state.getBudget(), "value", state.getValue()))
                .description("A budget value's spend in its latest period, USD").register(registry);
        return value;
    }

    private <V> void read(String store, BiConsumer<String, V> each) {
        try {
            StateQueryResult<KeyValueIterator<String, V>> result = streams.query(StateQueryRequest.inStore(store)
                    .withQuery(RangeQuery.<String, V>withNoBounds()).requireActive());
            for (QueryResult<KeyValueIterator<String, V>> partition : result.getPartitionResults().values()) {
                if (partition.isSuccess()) {
                    try (KeyValueIterator<String, V> all = partition.getResult()) {
                        all.forEachRemaining(entry -> each.accept(entry.key, entry.value));
                    }
                }
            }
        } catch (InvalidStateStoreException e) {
            // partitions moving: keep the last values
        }
    }
}
