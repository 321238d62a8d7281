package io.agentoutcomes.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.topic.Topics;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.errors.TopologyException;
import org.apache.kafka.streams.processor.internals.InternalTopologyBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The names of the pipeline's state stores, changelog topics and repartition topics, as Kafka Streams creates them
 * for an application: a store's state and changelog, and the records in flight in a repartition topic, are found
 * again after an upgrade only under the same name. Pinned here from the code as it was before the names were made
 * explicit (issue 34 item 5, {@code ensure.explicit.internal.resource.naming}), every stage on.
 */
class InternalNamesTest {
    private static final String APP = "agent-outcomes";
    private static final Set<String> STORES = Set.of("agent-tasks", "node-tasks", "retry-pending", "job-replay-state",
            "job-replay-recent", "provider-state", "provider-held", "analytics-partials", "analytics-windows",
            "analytics-sources", "budget-spend", "budget-alert-counts", "budget-status");
    private static final Set<String> CHANGELOGS = Set.of("agent-tasks", "node-tasks", "retry-pending", "job-replay-state",
            "job-replay-recent", "provider-state", "provider-held", "analytics-partials", "analytics-windows",
            "analytics-sources", "budget-spend", "budget-alert-counts");
    private static final Set<String> REPARTITIONS = Set.of("agent-results-by-key", "node-finished-by-key",
            "provider-retries", "provider-signals", "analytics-partials", "budget-charges");

    private final String scope = "names-" + UUID.randomUUID();
    private final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
            RetryTiers.defaults().names());

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    /** Every optional stage on: the provider gate and analytics (on by default) and a budget that stops retries. */
    private static PipelineSettings everyStage() {
        return PipelineSettings.builder().budgets(BudgetSettings.of(List.of(new Budget("daily", Dimension.AGENT, null,
                BudgetPeriod.DAY, new BigDecimal("1.00"), Budget.DEFAULT_THRESHOLDS, true)), 4)).build();
    }

    /** The topology as a Kafka Streams instance of application {@value #APP} prepares it before creating its topics. */
    private static InternalTopologyBuilder internals(Topology topology, Properties streamsConfig)
            throws ReflectiveOperationException {
        Field field = Topology.class.getDeclaredField("internalTopologyBuilder");
        field.setAccessible(true);
        Properties props = new Properties();
        props.putAll(streamsConfig);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return ((InternalTopologyBuilder) field.get(topology)).setApplicationId(APP).rewriteTopology(new StreamsConfig(props));
    }

    private static Set<String> prefixed(Set<String> names, String suffix) {
        Set<String> all = new TreeSet<>();
        names.forEach(name -> all.add(APP + "-" + name + suffix));
        return all;
    }

    private void assertNames(Properties streamsConfig) throws ReflectiveOperationException {
        Topology topology = AgentOutcomesTopology.build(topics, everyStage(), streamsConfig);
        InternalTopologyBuilder builder = internals(topology, streamsConfig);
        // Building the processors, as a stream thread does, names each logged store's changelog (the scheduler's
        // sub-topology, subscribed by pattern, has no topics' info until it is assigned).
        Map<String, String> changelogs = builder.buildTopology().storeToChangelogTopic();
        Set<String> repartitions = new TreeSet<>();
        builder.subtopologyToTopicsInfo().values().forEach(info -> repartitions.addAll(info.repartitionSourceTopics.keySet()));

        assertThat(new TreeSet<>(builder.stateStores().keySet()))
                .as("stores").containsExactlyInAnyOrderElementsOf(without(STORES, "budget-status"));
        assertThat(topology.describe().globalStores()).as("global stores")
                .flatExtracting(global -> global.processor().stores()).containsExactly("budget-status");
        Map<String, String> expectedChangelogs = new TreeMap<>(Map.of("budget-status", "budget-status"));
        CHANGELOGS.forEach(store -> expectedChangelogs.put(store, APP + "-" + store + "-changelog"));
        assertThat(changelogs).as("changelog topics (the global store's is its source topic)")
                .containsExactlyInAnyOrderEntriesOf(expectedChangelogs);
        assertThat(repartitions).as("repartition topics")
                .containsExactlyInAnyOrderElementsOf(prefixed(REPARTITIONS, "-repartition"));
    }

    private static Set<String> without(Set<String> names, String name) {
        Set<String> all = new TreeSet<>(names);
        all.remove(name);
        return all;
    }

    @Test
    void everyStoreChangelogAndRepartitionTopicKeepsItsName() throws ReflectiveOperationException {
        assertNames(new Properties());
    }

    @Test
    void explicitNamingEnsuredRefusesATopologyWithAGeneratedName() {
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(Map.of(
                StreamsConfig.APPLICATION_ID_CONFIG, APP, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092",
                StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true))));
        builder.stream("in").groupByKey().count();

        assertThatThrownBy(builder::build).isInstanceOf(TopologyException.class)
                .hasMessageContaining("KSTREAM-AGGREGATE-STATE-STORE-0000000001");
    }

    @Test
    void theNamesAreTheSameWithExplicitNamingEnsured() throws ReflectiveOperationException {
        Properties explicit = new Properties();
        explicit.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        assertNames(explicit);
    }
}
