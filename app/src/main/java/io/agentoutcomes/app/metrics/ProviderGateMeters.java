package io.agentoutcomes.app.metrics;

import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.topology.provider.ProviderGateStores;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The provider gate seen from its store ({@value ProviderGateStores#STATE_STORE}, this instance's partitions), per
 * scope ({@code gen_ai_provider_name}, {@code gen_ai_request_model}; model {@value #ALL_MODELS} where the scope is the
 * provider alone): {@code agent_outcomes_provider_circuit_state} (0 closed, 1 half-open, 2 open),
 * {@code agent_outcomes_provider_retries_held}, {@code agent_outcomes_provider_circuit_transitions_total{to}} and
 * {@code agent_outcomes_provider_retries_paced_total} (released after being held), and of the retry budget
 * {@code agent_outcomes_provider_retry_budget_exhausted} (1 while it alone holds the scope's retries) and
 * {@code agent_outcomes_provider_retries_budget_stopped_total} (stopped as retry_budget_exhausted); of the fallbacks
 * {@code agent_outcomes_provider_retries_fallback_total{fallback_provider_name,fallback_request_model,cause}}: retries of
 * the scope moved to a fallback model, by the fallback and why (counted by the fallback's scope, {@code fallbacksReceived};
 * a series per declared chain and cause, so bounded). The counters are the scope's own
 * (kept in its state), so they follow the scope when its partition moves to another instance. Series of a scope are
 * kept once seen; the scopes are bounded by {@code provider.max.scopes}. One refresh at a time: concurrent scrapes
 * must not register a scope's meters twice.
 */
public final class ProviderGateMeters {
    static final String ALL_MODELS = "all";
    private final MeterRegistry registry;
    private final KafkaStreams streams;
    private final Map<String, Scope> scopes = new HashMap<>();
    /** The fallback counts by the scope moved to, the scope moved from and the cause. */
    private final Map<String, AtomicLong> fallbacks = new HashMap<>();

    /** One scope's values, as the last scrape read them. */
    private record Scope(AtomicLong circuit, AtomicLong held, AtomicLong opened, AtomicLong halfOpened, AtomicLong closed,
                         AtomicLong paced, AtomicLong budgetExhausted, AtomicLong budgetStopped) {
        Scope() {
            this(new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(),
                    new AtomicLong(), new AtomicLong());
        }
    }

    public ProviderGateMeters(MeterRegistry registry, KafkaStreams streams) {
        this.registry = registry;
        this.streams = streams;
    }

    /** Reads the store again; call before a scrape. While it cannot be read the meters keep their last values. */
    public synchronized void refresh() {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return;
        }
        try {
            StateQueryResult<KeyValueIterator<String, ProviderState>> result = streams.query(StateQueryRequest
                    .inStore(ProviderGateStores.STATE_STORE).withQuery(RangeQuery.<String, ProviderState>withNoBounds())
                    .requireActive());
            for (QueryResult<KeyValueIterator<String, ProviderState>> partition : result.getPartitionResults().values()) {
                if (!partition.isSuccess()) {
                    continue;
                }
                try (KeyValueIterator<String, ProviderState> all = partition.getResult()) {
                    all.forEachRemaining(entry -> update(entry.key, entry.value));
                }
            }
        } catch (InvalidStateStoreException e) {
            // partitions moving: keep the last values
        }
    }

    private void update(String key, ProviderState state) {
        Scope scope = scopes.computeIfAbsent(key, k -> register(state));
        scope.circuit().set(switch (state.getCircuit()) {
            case CLOSED -> 0;
            case HALF_OPEN -> 1;
            case OPEN -> 2;
        });
        scope.held().set(state.getHeld());
        scope.opened().set(state.getOpened());
        scope.halfOpened().set(state.getHalfOpened());
        scope.closed().set(state.getClosed());
        scope.paced().set(state.getPaced());
        scope.budgetExhausted().set(state.getBudgetExhaustedSince() > 0 ? 1 : 0);
        scope.budgetStopped().set(state.getBudgetStopped());
        for (FallbackCount moved : state.getFallbacksReceived()) {
            String series = key + "\n" + moved.getProvider() + "\n" + moved.getModel() + "\n" + moved.getCause();
            fallbacks.computeIfAbsent(series, k -> fallback(state, moved)).set(moved.getRetries());
        }
    }

    /** The counter of retries moved from {@code moved}'s scope to {@code to}'s, for its cause: labelled by the first. */
    private AtomicLong fallback(ProviderState to, FallbackCount moved) {
        AtomicLong count = new AtomicLong();
        FunctionCounter.builder("agent_outcomes_provider_retries_fallback", count, AtomicLong::get)
                .tags(Tags.of(GenAiConventions.PROVIDER_NAME, moved.getProvider(), GenAiConventions.REQUEST_MODEL,
                        moved.getModel() == null ? ALL_MODELS : moved.getModel(), "fallback_provider_name", to.getProvider(),
                        "fallback_request_model", to.getModel() == null ? ALL_MODELS : to.getModel(),
                        "cause", moved.getCause().name().toLowerCase(Locale.ROOT)))
                .description("Retries of a provider's model moved to a fallback model of a declared chain, by the fallback and why")
                .register(registry);
        return count;
    }

    private Scope register(ProviderState state) {
        Scope scope = new Scope();
        Tags tags = Tags.of(GenAiConventions.PROVIDER_NAME, state.getProvider(), GenAiConventions.REQUEST_MODEL,
                state.getModel() == null ? ALL_MODELS : state.getModel());
        Gauge.builder("agent_outcomes_provider_circuit_state", scope.circuit(), AtomicLong::get).tags(tags)
                .description("A provider's circuit: 0 closed, 1 half-open (probes), 2 open (its retries held)").register(registry);
        Gauge.builder("agent_outcomes_provider_retries_held", scope.held(), AtomicLong::get).tags(tags)
                .description("Due retries a provider's circuit or request budget holds").register(registry);
        transitions(tags, "open", scope.opened());
        transitions(tags, "half_open", scope.halfOpened());
        transitions(tags, "closed", scope.closed());
        FunctionCounter.builder("agent_outcomes_provider_retries_paced", scope.paced(), AtomicLong::get).tags(tags)
                .description("Retries released after the provider's circuit or budget held them").register(registry);
        Gauge.builder("agent_outcomes_provider_retry_budget_exhausted", scope.budgetExhausted(), AtomicLong::get).tags(tags)
                .description("1 while a provider's retry budget, and nothing else, holds its due retries").register(registry);
        FunctionCounter.builder("agent_outcomes_provider_retries_budget_stopped", scope.budgetStopped(), AtomicLong::get).tags(tags)
                .description("Retries stopped (dead-letter, retry_budget_exhausted) after the retry budget held them past its max hold")
                .register(registry);
        return scope;
    }

    private void transitions(Tags tags, String to, AtomicLong count) {
        FunctionCounter.builder("agent_outcomes_provider_circuit_transitions", count, AtomicLong::get).tags(tags.and("to", to))
                .description("Changes of a provider's circuit, by the state it moved to").register(registry);
    }
}
