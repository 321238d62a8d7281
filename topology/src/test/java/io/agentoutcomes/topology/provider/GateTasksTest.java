package io.agentoutcomes.topology.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.InMemoryKeyValueStore;
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
        return task(dir, new InMemoryKeyValueStore(ProviderGateStores.HELD_STORE));
    }

    /** As above, with {@code held} as the held retries' store. */
    private MockProcessorContext<String, Object> task(File dir, KeyValueStore<Bytes, byte[]> held) {
        MockProcessorContext<String, Object> context = new MockProcessorContext<>(new Properties(), new TaskId(5, 0), dir);
        KeyValueStore<String, ProviderState> states = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                ProviderGateStores.STATE_STORE), Serdes.String(), AvroSerde.specific(ProviderState.class).configured(
                Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope), false)).withLoggingDisabled().build();
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
        here.scopeOf("acme/m1", "acme", "m1", NOW).hold();

        // SIGNALS, not RETRIES again: a second RETRIES join of one task is a restart, which gets new scopes anyway
        GateScopes there = tasks.join(task(stateDir.resolve("b").toFile()), GateScopes.Role.SIGNALS);

        assertThat(there).isNotSameAs(here);
        assertThat(there.scopeOf("acme/m1", "acme", "m1", NOW).held()).isZero();
    }

    @Test
    void aRetryWhoseHoldCouldNotBeStoredIsNotCountedAsHeld() {
        MockProcessorContext<String, Object> context = task(stateDir.toFile(),
                new InMemoryKeyValueStore(ProviderGateStores.HELD_STORE) {
                    @Override
                    public void put(Bytes key, byte[] value) {
                        throw new IllegalStateException("the held store refused a write");
                    }
                });
        RetryGate gate = new RetryGate(ProviderGateSettings.defaults(), null, tasks);
        gate.init(context);
        ScopeGate scope = gate.scopes.scopeOf("acme/m1", "acme", "m1", NOW);
        scope.advertise(List.of(RateLimitWindow.newBuilder().setName("requests").setResource("requests").setLimit(60L)
                .setRemaining(0L).setResetsInMs(20_000L).setLengthMs(60_000L).build()), NOW, NOW);
        RetryRequest retry = RetryRequest.newBuilder().setTaskId("t1").setResultId("r1").setNextAttempt(1)
                .setErrorCode("llm-rate-limit").setDelayMs(5_000).setDelayReason("test").setTier("short")
                .setFailedAt(NOW).setDueAt(NOW).setReason("test").build();

        assertThatThrownBy(() -> gate.admit("acme/m1", scope, retry, new RecordHeaders(), NOW + 1_000))
                .hasMessage("the held store refused a write");

        assertThat(scope.held()).as("a hold never stored is never released: the scope would hold everything after it")
                .isZero();
        assertThat(context.forwarded()).isEmpty();
    }
}
