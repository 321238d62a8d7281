package io.agentoutcomes.topology.provider;

import java.io.File;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessingContext;

/**
 * Hands the two gate processors of one task the same {@link GateScopes}. Kafka Streams makes a processor per node and
 * task, and shares only stores between them; the scopes kept in memory beside the store must be shared too, or each
 * processor would act on its own stale copy. A task's processors are initialised together on its thread, every time
 * the task starts, so the first of a start opens new scopes from the store and the second joins them. Keyed by task and
 * state directory: one task of one Kafka Streams instance, even with two instances of a topology in one JVM.
 */
final class GateTasks {
    private record Key(TaskId task, File stateDir) {
    }

    private final Map<Key, GateScopes> tasks = new ConcurrentHashMap<>();
    private final ProviderGateSettings settings;

    GateTasks(ProviderGateSettings settings) {
        this.settings = settings;
    }

    /** The task's scopes, for the processor of {@code role} being initialised in {@code context}. */
    GateScopes join(ProcessingContext context, GateScopes.Role role) {
        return tasks.compute(new Key(context.taskId(), context.stateDir()),
                (key, scopes) -> scopes != null && scopes.join(role) ? scopes : new GateScopes(context, settings, role));
    }

    /** A processor closes with its task: the task's scopes are forgotten here (each processor keeps its reference). */
    void leave(ProcessingContext context, GateScopes scopes) {
        tasks.remove(new Key(context.taskId(), context.stateDir()), scopes);
    }
}
