package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The gate one scope's due retries pass, in the one stream task that owns the scope (its inputs are keyed by scope):
 * a retry goes on to {@code retry-ready} at once while nothing of its scope is held and the scope allows it; otherwise
 * it is held, and released oldest first as the scope allows, on the gate's wall-clock check (run here) or when evidence
 * arrives ({@link SignalGate}). The scopes' states and the held retries are changelogged stores, so with exactly-once a
 * release and its removal from the store commit together: never lost, never twice; a retry is only ever held after its
 * due time.
 */
final class RetryGate extends GateProcessor<RetryRequest> {
    /** The sinks it forwards to (named in {@link ProviderGateTopology}). */
    static final String RETRIES = "write-gated-retry-ready";
    static final String HEALTH = "write-provider-health";
    static final String DEAD_LETTERS = "write-provider-gate-dead-letter";

    private final Fallbacks fallbacks;

    RetryGate(ProviderGateSettings settings, Fallbacks fallbacks, GateTasks tasks) {
        super(settings, tasks, GateScopes.Role.RETRIES, RETRIES, HEALTH);
        this.fallbacks = fallbacks;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        super.init(context);
        PunctuationWatch.schedule(Punctuators.PROVIDER_GATE, context, settings.checkInterval(), this::check);
    }

    @Override
    public void process(Record<String, RetryRequest> record) {
        long now = context.currentSystemTimeMs();
        RetryRequest retry = record.value();
        ProviderScope named = Fallbacks.scopeOf(retry, settings.scope());
        ScopeGate scope = named == null ? null : scopes.scopeOf(record.key(), named.provider(), named.model(), now);
        if (scope == null) {
            forward(retry, record.headers(), now);
            return;
        }
        Fallbacks.arrived(scope, retry, settings.scope());
        scope.advertise(retry, now);
        evaluate(record.key(), scope, now);
        Fallbacks.Diversion diversion = fallbacks.divert(scope, retry, now, fallback -> scopes.scopeOf(fallback.key(),
                fallback.provider(), fallback.model(), now));
        if (diversion != null) {
            scopes.save(record.key(), scope);
            evaluate(diversion.key(), diversion.scope(), now);
            admit(diversion.key(), diversion.scope(), diversion.retry(), record.headers(), now);
        } else if (retry.getAction() == RetryAction.SWITCH_PROVIDER) {
            // no model of its chain can serve it: it goes on at once, as a retry that switches provider always did
            forward(retry, record.headers(), now);
            scopes.save(record.key(), scope);
        } else {
            admit(record.key(), scope, retry, record.headers(), now);
        }
    }

    /** The wall-clock check: circuits whose time has come move, held retries go as far as allowed, idle scopes go. */
    private void check(long now) {
        for (Map.Entry<String, ScopeGate> entry : scopes.all()) {
            String key = entry.getKey();
            ScopeGate scope = entry.getValue();
            CircuitState before = scope.circuit();
            long heldBefore = scope.held();
            long exhaustedBefore = scope.budgetExhaustedSince();
            evaluate(key, scope, now);
            divertHeld(key, scope, now);
            release(key, scope, now);
            if (settings.budget().enabled()) {
                stopHeldTooLong(key, scope, now);
            }
            if (scope.idle(now)) {
                scopes.forget(key);
            } else if (before != scope.circuit() || heldBefore != scope.held() || exhaustedBefore != scope.budgetExhaustedSince()) {
                // A budget's refill is a function of time alone: stored only with a change that matters, it comes out
                // the same after a restore.
                scopes.save(key, scope);
            }
        }
    }

    /** The held retries of a scope that cannot serve them now go to the first model of their chain that can. */
    private void divertHeld(String key, ScopeGate scope, long now) {
        if (scope.held() == 0 || !fallbacks.declared(scope) || scope.sickness(now) == null) {
            return;
        }
        long moved = 0;
        long examined = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = scopes.oldest(key)) {
            while (examined++ < MAX_PER_CHECK && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                Fallbacks.Diversion diversion = fallbacks.divert(scope, scopes.retry(entry.value), now, fallback ->
                        scopes.scopeOf(fallback.key(), fallback.provider(), fallback.model(), now));
                if (diversion == null) {
                    // a scope of one model: its held retries share one chain, and none of it can serve them either
                    if (settings.scope() == ProviderScope.By.PROVIDER_MODEL) {
                        break;
                    }
                    continue;
                }
                scopes.unhold(entry.key);
                scope.unhold(1);
                moved++;
                evaluate(diversion.key(), diversion.scope(), now);
                admit(diversion.key(), diversion.scope(), diversion.retry(), GateScopes.headers(entry.value), now);
            }
        }
        if (moved > 0) {
            scopes.save(key, scope);
        }
    }

    /**
     * While the retry budget, and nothing else, has held the scope's retries for the max hold, the held retries due
     * longer than that ago are stopped, oldest first, to {@code dead-letter}.
     */
    private void stopHeldTooLong(String key, ScopeGate scope, long now) {
        long before = scope.stopDueBefore(now);
        if (before == Long.MIN_VALUE) {
            return;
        }
        long stopped = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = scopes.oldest(key)) {
            while (stopped < MAX_PER_CHECK && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                RetryRequest retry = scopes.retry(entry.value);
                if (retry.getDueAt() > before) {
                    break;
                }
                ClassifiedOutcome deadLetter = scope.stop(retry, now);
                context.forward(new Record<>(retry.getTaskId(), (Object) deadLetter, now, GateScopes.headers(entry.value)),
                        DEAD_LETTERS);
                scopes.unhold(entry.key);
                stopped++;
            }
        }
        scope.stopped(stopped);
    }
}
