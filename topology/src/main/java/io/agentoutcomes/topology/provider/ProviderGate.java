package io.agentoutcomes.topology.provider;

import static io.agentoutcomes.topology.provider.ProviderGateStores.HELD_STORE;
import static io.agentoutcomes.topology.provider.ProviderGateStores.STATE_STORE;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.agentoutcomes.topology.schedule.PendingRetries;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The gate one scope's due retries pass, in the one stream task that owns the scope (both inputs are keyed by scope):
 * a retry goes on to {@code retry-ready} at once while nothing of its scope is held and both the circuit and the
 * request budget allow it; otherwise it is held, and released oldest first as they allow. The scope's evidence (tallies
 * of outcomes, the budgets providers advertise) moves the circuit; each change goes to {@code provider-health}.
 * The scopes' states and the held retries are changelogged stores, so with exactly-once a release and its removal
 * from the store commit together: never lost, never twice; and a retry is only ever held after its due time.
 */
final class ProviderGate implements Processor<String, SpecificRecord, String, Object> {
    /** The sinks it forwards to (named in {@link ProviderGateTopology}). */
    static final String RETRIES = "write-gated-retry-ready";
    static final String HEALTH = "write-provider-health";
    static final String DEAD_LETTERS = "write-provider-gate-dead-letter";
    /** The most retries one check releases (each release is a record in the transaction). */
    static final int MAX_PER_CHECK = 10_000;

    private final ProviderGateSettings settings;
    private final Fallbacks fallbacks;
    private final PendingRetries heldRetries = new PendingRetries();
    /** Every scope of this task, as in the state store: the gate checks each on its wall-clock schedule. */
    private final Map<String, ProviderState> scopes = new HashMap<>();
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, ProviderState> states;
    private KeyValueStore<Bytes, byte[]> held;

    ProviderGate(ProviderGateSettings settings, Fallbacks fallbacks) {
        this.settings = settings;
        this.fallbacks = fallbacks;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.states = context.getStateStore(STATE_STORE);
        this.held = context.getStateStore(HELD_STORE);
        try (KeyValueIterator<String, ProviderState> all = states.all()) {
            all.forEachRemaining(entry -> scopes.put(entry.key, entry.value));
        }
        Punctuators.PROVIDER_GATE.schedule(context, settings.checkInterval(), this::check);
    }

    @Override
    public void process(Record<String, SpecificRecord> record) {
        long now = context.currentSystemTimeMs();
        if (record.value() instanceof ProviderSignal signal) {
            ProviderState state = stateOf(record.key(), signal.getProvider(), signal.getModel(), now);
            if (state == null) {
                return;
            }
            if (settings.pacing() && signal.getAdvertisedAt() != null) {
                RequestBudgets.advertise(state, signal.getWindows(), signal.getAdvertisedAt(), now, settings.defaultWindow(),
                        settings.checkInterval().toMillis());
            }
            if (settings.circuit().enabled()) {
                Circuit.observe(state, signal, settings.circuit(), now).ifPresent(change -> publish(record.key(), change));
            }
            if (settings.budget().enabled()) {
                RetryBudget.observe(state, signal.getOutcomes(), signal.getTo(), settings.budget());
            }
            release(record.key(), state, now);
            states.put(record.key(), state);
        } else if (record.value() instanceof RetryRequest retry) {
            ProviderScope scope = Fallbacks.scopeOf(retry, settings.scope());
            ProviderState state = scope == null ? null : stateOf(record.key(), scope.provider(), scope.model(), now);
            if (state == null) {
                forward(retry, record.headers(), now);
                return;
            }
            Fallbacks.arrived(state, retry, settings.scope());
            // the failed attempt's rate limits are its own model's, not those of a fallback the retry already carries
            if (settings.pacing() && retry.getAgentResult().getRateLimit() != null && retry.getFallbackProvider() == null) {
                RequestBudgets.advertise(state, windowsOf(retry), retry.getFailedAt(), now, settings.defaultWindow(),
                        settings.checkInterval().toMillis());
            }
            evaluate(record.key(), state, now);
            Fallbacks.Diversion diversion = fallbacks.divert(state, retry, now, fallback -> stateOf(fallback.key(),
                    fallback.provider(), fallback.model(), now));
            if (diversion != null) {
                states.put(record.key(), state);
                evaluate(diversion.key(), diversion.state(), now);
                admit(diversion.key(), diversion.state(), diversion.retry(), record.headers(), now);
            } else if (retry.getAction() == RetryAction.SWITCH_PROVIDER) {
                // no model of its chain can serve it: it goes on at once, as a retry that switches provider always did
                forward(retry, record.headers(), now);
                states.put(record.key(), state);
            } else {
                admit(record.key(), state, retry, record.headers(), now);
            }
        }
    }

    /** A retry goes on at once while nothing of its scope is held and the circuit and budget allow; else it is held. */
    private void admit(String key, ProviderState state, RetryRequest retry, Headers headers, long now) {
        if (state.getHeld() == 0 && allowance(state, now) > 0) {
            forward(retry, headers, now);
            spend(state, 1, now);
        } else {
            held.put(HeldRetryKey.of(key, retry), heldRetries.encode(headers, retry));
            state.setHeld(state.getHeld() + 1);
        }
        states.put(key, state);
    }

    /** The held retries of a scope that cannot serve them now go to the first model of their chain that can. */
    private void divertHeld(String key, ProviderState state, long now) {
        if (state.getHeld() == 0 || !fallbacks.declared(state) || fallbacks.sickness(state, now) == null) {
            return;
        }
        long moved = 0;
        long examined = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = held.prefixScan(HeldRetryKey.prefix(key), new BytesSerializer())) {
            while (examined++ < MAX_PER_CHECK && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                Fallbacks.Diversion diversion = fallbacks.divert(state, heldRetries.retry(entry.value), now, fallback ->
                        stateOf(fallback.key(), fallback.provider(), fallback.model(), now));
                if (diversion == null) {
                    // a scope of one model: its held retries share one chain, and none of it can serve them either
                    if (settings.scope() == ProviderScope.By.PROVIDER_MODEL) {
                        break;
                    }
                    continue;
                }
                held.delete(entry.key);
                state.setHeld(state.getHeld() - 1);
                moved++;
                evaluate(diversion.key(), diversion.state(), now);
                admit(diversion.key(), diversion.state(), diversion.retry(), PendingRetries.headers(entry.value), now);
            }
        }
        if (moved > 0) {
            states.put(key, state);
        }
    }

    /** The wall-clock check: circuits whose time has come move, held retries go as far as allowed, idle scopes go. */
    private void check(long now) {
        for (Map.Entry<String, ProviderState> scope : new ArrayList<>(scopes.entrySet())) {
            ProviderState state = scope.getValue();
            CircuitState before = state.getCircuit();
            long heldBefore = state.getHeld();
            long exhaustedBefore = state.getBudgetExhaustedSince();
            evaluate(scope.getKey(), state, now);
            divertHeld(scope.getKey(), state, now);
            release(scope.getKey(), state, now);
            if (settings.budget().enabled()) {
                stopHeldTooLong(scope.getKey(), state, now);
            }
            if (state.getHeld() == 0 && state.getCircuit() == CircuitState.CLOSED
                    && now - state.getLastActivity() > settings.idleExpiry().toMillis()) {
                scopes.remove(scope.getKey());
                states.delete(scope.getKey());
            } else if (before != state.getCircuit() || heldBefore != state.getHeld()
                    || exhaustedBefore != state.getBudgetExhaustedSince()) {
                // A budget's refill is a function of time alone: stored only with a change that matters, it comes out
                // the same after a restore.
                states.put(scope.getKey(), state);
            }
        }
    }

    private void evaluate(String key, ProviderState state, long now) {
        if (settings.circuit().enabled()) {
            Circuit.evaluate(state, settings.circuit(), now).ifPresent(change -> publish(key, change));
        }
    }

    /** Releases the scope's held retries, oldest first, as many as the circuit and budget allow. */
    private void release(String key, ProviderState state, long now) {
        if (state.getHeld() == 0) {
            return;
        }
        long allowed = Math.min(allowance(state, now), MAX_PER_CHECK);
        long released = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = held.prefixScan(HeldRetryKey.prefix(key), new BytesSerializer())) {
            while (released < allowed && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                forward(heldRetries.retry(entry.value), PendingRetries.headers(entry.value), now);
                held.delete(entry.key);
                released++;
            }
        }
        if (released > 0) {
            state.setHeld(state.getHeld() - released);
            state.setPaced(state.getPaced() + released);
            spend(state, released, now);
        }
    }

    /** The windows of a retry's failure as they stood when it failed, from when the provider said them where known. */
    private List<RateLimitWindow> windowsOf(RetryRequest retry) {
        Long said = retry.getAgentResult().getRecordTimestamp();
        long saidAt = said == null ? retry.getFailedAt() : Math.min(said, retry.getFailedAt());
        return AdvertisedWindows.asOf(retry.getAgentResult().getRateLimit().getWindows(), saidAt, retry.getFailedAt(),
                settings.defaultWindow());
    }

    private long allowance(ProviderState state, long now) {
        long paced = paced(state, now);
        return settings.budget().enabled() ? Math.min(paced, RetryBudget.allowance(state, now, settings.budget())) : paced;
    }

    /** What the circuit and the provider's advertised budgets allow (the retry budget aside). */
    private long paced(ProviderState state, long now) {
        long circuit = settings.circuit().enabled() ? Circuit.allowance(state, settings.circuit()) : Long.MAX_VALUE;
        return settings.pacing() ? Math.min(circuit, RequestBudgets.allowance(state, now, settings.checkInterval().toMillis())) : circuit;
    }

    private void spend(ProviderState state, long count, long now) {
        if (settings.budget().enabled()) {
            RetryBudget.spend(state, count, now, settings.budget());
        }
        RequestBudgets.spend(state, count);
        if (state.getCircuit() == CircuitState.HALF_OPEN) {
            state.setProbesReleased((int) Math.min(Integer.MAX_VALUE, state.getProbesReleased() + count));
        }
    }

    /**
     * Marks whether the retry budget, and nothing else, holds the scope's retries; while it has for the max hold, the
     * held retries due longer than that ago are stopped, oldest first, to {@code dead-letter}.
     */
    private void stopHeldTooLong(String key, ProviderState state, long now) {
        boolean exhausted = state.getHeld() > 0 && paced(state, now) > 0 && RetryBudget.allowance(state, now, settings.budget()) == 0;
        if (!exhausted) {
            state.setBudgetExhaustedSince(0);
            return;
        }
        if (state.getBudgetExhaustedSince() == 0) {
            state.setBudgetExhaustedSince(now);
        }
        long before = now - settings.budget().maxHold().toMillis();
        if (state.getBudgetExhaustedSince() > before) {
            return;
        }
        long stopped = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = held.prefixScan(HeldRetryKey.prefix(key), new BytesSerializer())) {
            while (stopped < MAX_PER_CHECK && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                RetryRequest retry = heldRetries.retry(entry.value);
                if (retry.getDueAt() > before) {
                    break;
                }
                ClassifiedOutcome deadLetter = RetryBudget.stopped(retry, state, now, settings.budget());
                context.forward(new Record<>(retry.getTaskId(), (Object) deadLetter, now, PendingRetries.headers(entry.value)),
                        DEAD_LETTERS);
                held.delete(entry.key);
                stopped++;
            }
        }
        state.setHeld(state.getHeld() - stopped);
        state.setBudgetStopped(state.getBudgetStopped() + stopped);
    }

    /** The scope's state, created on first sight; null past {@link ProviderGateSettings#maxScopes} (the retry passes). */
    private ProviderState stateOf(String key, String provider, String model, long now) {
        ProviderState state = scopes.get(key);
        if (state == null) {
            if (scopes.size() >= settings.maxScopes()) {
                return null;
            }
            state = ProviderState.newBuilder().setProvider(provider).setModel(model).setSince(now)
                    .setBuckets(new ArrayList<>()).setBudgets(new ArrayList<>()).setRetrySlices(new ArrayList<>()).setFallbacksReceived(new ArrayList<>()).build();
            scopes.put(key, state);
        }
        state.setLastActivity(now);
        return state;
    }

    private void forward(RetryRequest retry, Headers headers, long now) {
        context.forward(new Record<>(retry.getTaskId(), (Object) retry, now, headers), RETRIES);
    }

    private void publish(String key, ProviderHealth change) {
        context.forward(new Record<>(key, (Object) change, change.getAt()), HEALTH);
    }
}
