package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ProviderSignal;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The gate's evidence: a tally of a scope's outcomes and the budgets its provider advertised ({@link ProviderSignals})
 * moves the scope's circuit and budgets, and releases what the scope now allows of its held retries.
 */
final class SignalGate extends GateProcessor<ProviderSignal> {
    /** The sinks it forwards to (named in {@link ProviderGateTopology}). */
    static final String RETRIES = "write-signal-released-retry-ready";
    static final String HEALTH = "write-signal-provider-health";

    SignalGate(ProviderGateSettings settings, GateTasks tasks) {
        super(settings, tasks, GateScopes.Role.SIGNALS, RETRIES, HEALTH);
    }

    @Override
    public void process(Record<String, ProviderSignal> record) {
        long now = context.currentSystemTimeMs();
        ProviderSignal signal = record.value();
        ScopeGate scope = scopes.scopeOf(record.key(), signal.getProvider(), signal.getModel(), now);
        if (scope == null) {
            return;
        }
        scope.observe(signal, now).ifPresent(change -> publish(record.key(), change));
        release(record.key(), scope, now);
        scopes.save(record.key(), scope);
    }
}
