package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate's two processors of one task share one set of scopes; a task that starts again reads them afresh. */
class GateTasksTest {
    private static final long NOW = 1_800_000_000_000L;
    private final String scope = "gate-tasks-" + UUID.randomUUID();
    private final GateTasks tasks = new GateTasks(ProviderGateSettings.defaults());
    @TempDir
    Path stateDir;

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    /** A task's context holding the gate's two stores, in memory. */
    private MockProcessorContext<String, Object> task(File dir) {
        MockProcessorContext<String, Object> context = new MockProcessorContext<>(new Properties(), new TaskId(5, 0), dir);
        KeyValueStore<String, ProviderState> states = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                ProviderGateStores.STATE_STORE), Serdes.String(), AvroSerde.specific(ProviderState.class).configured(
                Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope), false)).withLoggingDisabled().build();
        KeyValueStore<Bytes, byte[]> held = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(ProviderGateStores.HELD_STORE),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled().build();
        states.init(context.getStateStoreContext(), states);
        held.init(context.getStateStoreContext(), held);
        return context;
    }

    @Test
    void theRetriesAndSignalsProcessorsOfATaskShareItsScopes() {
        MockProcessorContext<String, Object> context = task(stateDir.toFile());

        GateScopes retries = tasks.join(context, GateScopes.Role.RETRIES);
        GateScopes signals = tasks.join(context, GateScopes.Role.SIGNALS);

        assertThat(signals).isSameAs(retries);
        assertThat(signals.scopeOf("acme/m1", "acme", "m1", NOW)).isSameAs(retries.scopeOf("acme/m1", "acme", "m1", NOW));
    }

    @Test
    void aTaskStartedAgainSharesNewScopesReadFromItsStore() {
        MockProcessorContext<String, Object> context = task(stateDir.toFile());
        GateScopes first = tasks.join(context, GateScopes.Role.RETRIES);
        tasks.join(context, GateScopes.Role.SIGNALS);
        ScopeGate held = first.scopeOf("acme/m1", "acme", "m1", NOW);
        held.hold();
        first.save("acme/m1", held);
        held.hold();

        GateScopes again = tasks.join(context, GateScopes.Role.RETRIES);

        assertThat(again).isNotSameAs(first);
        assertThat(tasks.join(context, GateScopes.Role.SIGNALS)).isSameAs(again);
        assertThat(again.scopeOf("acme/m1", "acme", "m1", NOW).held()).as("as stored, not as in memory").isEqualTo(1);
    }

    @Test
    void theSameTaskOfAnotherInstanceHasScopesOfItsOwn() {
        GateScopes here = tasks.join(task(stateDir.resolve("a").toFile()), GateScopes.Role.RETRIES);

        GateScopes there = tasks.join(task(stateDir.resolve("b").toFile()), GateScopes.Role.SIGNALS);

        assertThat(there).isNotSameAs(here);
    }
}
