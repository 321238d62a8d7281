package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.RetryRequest;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * What the gate's two processors ({@link RetryGate}, {@link SignalGate}) both do with a task's {@link GateScopes}:
 * let a retry through or hold it, release a scope's held retries, publish a circuit's change. Each forwards to sinks
 * of its own (a sink has one parent), onto the same topics.
 *
 * @param <V> the processor's input: a due retry, or a tally of outcomes
 */
abstract class GateProcessor<V> implements Processor<String, V, String, Object> {
    /** The most retries one check releases (each release is a record in the transaction). */
    static final int MAX_PER_CHECK = 10_000;

    final ProviderGateSettings settings;
    private final GateTasks tasks;
    private final GateScopes.Role role;
    private final String retriesSink;
    private final String healthSink;
    ProcessorContext<String, Object> context;
    GateScopes scopes;

    GateProcessor(ProviderGateSettings settings, GateTasks tasks, GateScopes.Role role, String retriesSink, String healthSink) {
        this.settings = settings;
        this.tasks = tasks;
        this.role = role;
        this.retriesSink = retriesSink;
        this.healthSink = healthSink;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.scopes = tasks.join(context, role);
    }

    @Override
    public void close() {
        tasks.leave(context, scopes);
    }

    /** A retry goes on at once while nothing of its scope is held and the scope allows one; else it is held. */
    final void admit(String key, ScopeGate scope, RetryRequest retry, Headers headers, long now) {
        // counted once done, so a retry that could not be stored is not counted as held
        if (scope.admits(now)) {
            forward(retry, headers, now);
            scope.letThrough(now);
        } else {
            scopes.hold(key, retry, headers);
            scope.hold();
        }
        scopes.save(key, scope);
    }

    /** Releases the scope's held retries, oldest first, as many as it allows. */
    final void release(String key, ScopeGate scope, long now) {
        if (scope.held() == 0) {
            return;
        }
        long allowed = Math.min(scope.allowance(now), MAX_PER_CHECK);
        long released = 0;
        try (KeyValueIterator<Bytes, byte[]> oldest = scopes.oldest(key)) {
            while (released < allowed && oldest.hasNext()) {
                KeyValue<Bytes, byte[]> entry = oldest.next();
                forward(scopes.retry(entry.value), GateScopes.headers(entry.value), now);
                scopes.unhold(entry.key);
                released++;
            }
        }
        if (released > 0) {
            scope.release(released, now);
        }
    }

    final void evaluate(String key, ScopeGate scope, long now) {
        scope.evaluate(now).ifPresent(change -> publish(key, change));
    }

    final void forward(RetryRequest retry, Headers headers, long now) {
        context.forward(new Record<>(retry.getTaskId(), (Object) retry, now, headers), retriesSink);
    }

    final void publish(String key, ProviderHealth change) {
        context.forward(new Record<>(key, (Object) change, change.getAt()), healthSink);
    }
}
