package io.agentoutcomes.topology.provider;

import static io.agentoutcomes.topology.provider.ProviderGateStores.HELD_STORE;
import static io.agentoutcomes.topology.provider.ProviderGateStores.STATE_STORE;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.schedule.PendingRetries;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One gate task's scopes ({@link ScopeGate}, one per scope, as the {@code provider-state} store holds them) and its
 * held retries ({@code provider-held}), shared by the task's two gate processors ({@link RetryGate},
 * {@link SignalGate}): what one changes, the other reads next, on the task's one thread. The scopes are read from the
 * store once, when the task starts, and kept: the hot path looks a scope up, it does not decode it.
 */
final class GateScopes {
    /** The two processors of a task that share it. */
    enum Role { RETRIES, SIGNALS }

    private final ProviderGateSettings settings;
    private final KeyValueStore<String, ProviderState> states;
    private final KeyValueStore<Bytes, byte[]> held;
    private final PendingRetries heldRetries = new PendingRetries();
    private final Map<String, ScopeGate> scopes = new HashMap<>();
    private final Set<Role> joined = EnumSet.noneOf(Role.class);

    GateScopes(ProcessingContext context, ProviderGateSettings settings, Role first) {
        this.settings = settings;
        this.states = context.getStateStore(STATE_STORE);
        this.held = context.getStateStore(HELD_STORE);
        try (KeyValueIterator<String, ProviderState> all = states.all()) {
            all.forEachRemaining(entry -> scopes.put(entry.key, new ScopeGate(entry.value, settings)));
        }
        joined.add(first);
    }

    /**
     * Joins a processor of the task; false if one of its role has joined already: the task has started again (after a
     * rebalance, or revived after an error), and its processors are to share new scopes read from the store afresh.
     */
    boolean join(Role role) {
        return joined.add(role);
    }

    /** The scope, created on first sight and marked active at {@code now}; null past {@link ProviderGateSettings#maxScopes}. */
    ScopeGate scopeOf(String key, String provider, String model, long now) {
        ScopeGate scope = scopes.get(key);
        if (scope == null) {
            if (scopes.size() >= settings.maxScopes()) {
                return null;
            }
            scope = ScopeGate.open(provider, model, now, settings);
            scopes.put(key, scope);
        }
        scope.touch(now);
        return scope;
    }

    /** Every scope of the task, as a copy the wall-clock check may forget scopes of while it walks them. */
    List<Map.Entry<String, ScopeGate>> all() {
        return new ArrayList<>(scopes.entrySet());
    }

    void save(String key, ScopeGate scope) {
        states.put(key, scope.state());
    }

    void forget(String key) {
        scopes.remove(key);
        states.delete(key);
    }

    /** Keeps a retry its scope holds, after those it holds already. */
    void hold(String key, RetryRequest retry, Headers headers) {
        held.put(HeldRetryKey.of(key, retry), heldRetries.encode(headers, retry));
    }

    /** A scope's held retries, oldest first; to close. */
    KeyValueIterator<Bytes, byte[]> oldest(String key) {
        return held.prefixScan(HeldRetryKey.prefix(key), new BytesSerializer());
    }

    RetryRequest retry(byte[] entry) {
        return heldRetries.retry(entry);
    }

    static Headers headers(byte[] entry) {
        return PendingRetries.headers(entry);
    }

    void unhold(Bytes entry) {
        held.delete(entry);
    }
}
