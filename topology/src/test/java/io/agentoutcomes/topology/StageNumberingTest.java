package io.agentoutcomes.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.topic.Topics;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A task's state directory is named by its sub-topology's number, which Kafka Streams gives in the order the
 * topology's parts are added: turning an optional stage on (the provider gate, analytics, budgets) must renumber no
 * always-on stage, and declaring a budget must renumber nothing, or an upgrade wipes and restores those tasks' state
 * (issue 29 item 6). Each stage is found by its source topics and its stores.
 */
class StageNumberingTest {
    /** The always-on stages' sources and stores, and the sub-topology each is in, at every setting. */
    private static final Map<String, Integer> ALWAYS_ON = Map.ofEntries(
            Map.entry("agent-results-json", 0), Map.entry("node-finished-json", 1), Map.entry("continuation-events-json", 2),
            Map.entry("agent-results", 3), Map.entry("node-finished", 3), Map.entry("continuation-events", 3),
            Map.entry("agent-results-by-key-repartition", 3), Map.entry("node-finished-by-key-repartition", 3),
            Map.entry("store agent-tasks", 3), Map.entry("store node-tasks", 3), Map.entry("store job-replay-state", 3),
            Map.entry("store job-replay-recent", 3),
            Map.entry("\\Qretry-delay-\\E[A-Za-z0-9]+", 4), Map.entry("store retry-pending", 4));
    private static final Map<String, Integer> GATE = Map.of("provider-retries-repartition", 5,
            "provider-signals-repartition", 5, "store provider-state", 5, "store provider-held", 5);
    private static final Map<String, Integer> ANALYTICS = Map.of("analytics-partials-repartition", 6,
            "store analytics-partials", 3, "store analytics-windows", 6, "store analytics-sources", 6);
    private static final Map<String, Integer> BUDGETS = Map.of("budget-charges-repartition", 7,
            "store budget-spend", 7, "store budget-alert-counts", 7, "global budget-status", 8);

    private final String scope = "numbering-" + UUID.randomUUID();
    private final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
            RetryTiers.defaults().names());
    private final PipelineSettings defaults = PipelineSettings.defaults();

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    private static BudgetSettings budget(boolean stopRetries) {
        return BudgetSettings.of(List.of(new Budget("daily", Dimension.AGENT, null, BudgetPeriod.DAY, new BigDecimal("1.00"),
                Budget.DEFAULT_THRESHOLDS, stopRetries)), 4);
    }

    private static PipelineSettings budgeted(boolean stopRetries) {
        return PipelineSettings.builder().budgets(budget(stopRetries)).build();
    }

    private PipelineSettings noGate(PipelineSettings settings) {
        return settings.toBuilder().providers(settings.providers().withEnabled(false)).build();
    }

    private PipelineSettings noAnalytics(PipelineSettings settings) {
        AnalyticsSettings on = settings.analytics();
        return settings.toBuilder().analytics(new AnalyticsSettings(on.flushInterval(), on.grace(), on.maxLabelSets(), false,
                on.dimensions(), on.maxDimensionValues())).build();
    }

    /** Each source topic (or pattern), {@code store <name>} and {@code global <store>}, with its sub-topology's number. */
    private Map<String, Integer> numbering(PipelineSettings settings) {
        TopologyDescription description = AgentOutcomesTopology.build(topics, settings, new Properties()).describe();
        Map<String, Integer> numbers = new HashMap<>();
        for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
            for (TopologyDescription.Node node : subtopology.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    if (source.topicSet() != null) {
                        source.topicSet().forEach(topic -> numbers.put(topic, subtopology.id()));
                    } else {
                        numbers.put(source.topicPattern().pattern(), subtopology.id());
                    }
                } else if (node instanceof TopologyDescription.Processor processor) {
                    processor.stores().forEach(store -> numbers.put("store " + store, subtopology.id()));
                }
            }
        }
        description.globalStores().forEach(global -> global.processor().stores()
                .forEach(store -> numbers.put("global " + store, global.id())));
        // The OTLP input (issue 31), stateless and the newest stage, is built after every other, so that upgrading to
        // it renumbered nothing: its number is the last, whichever optional stages are on
        Integer otlp = numbers.remove(topics.otlpSpans.name());
        assertThat(otlp).as("the OTLP input's sub-topology").isNotNull()
                .isGreaterThan(numbers.entrySet().stream().filter(entry -> !entry.getKey().startsWith("global "))
                        .mapToInt(Map.Entry::getValue).max().orElseThrow());
        return numbers;
    }

    private static Map<String, Integer> union(List<Map<String, Integer>> parts) {
        Map<String, Integer> all = new HashMap<>();
        parts.forEach(all::putAll);
        return all;
    }

    @Test
    void theDefaultsNumberTheAlwaysOnStagesThenTheProviderGateThenAnalytics() {
        assertThat(numbering(defaults)).containsExactlyInAnyOrderEntriesOf(union(List.of(ALWAYS_ON, GATE, ANALYTICS)));
    }

    @Test
    void declaringABudgetThatStopsRetriesRenumbersNoOtherStage() {
        assertThat(numbering(budgeted(true)))
                .containsExactlyInAnyOrderEntriesOf(union(List.of(ALWAYS_ON, GATE, ANALYTICS, BUDGETS)));
    }

    @Test
    void declaringABudgetThatOnlyAlertsRenumbersNoOtherStage() {
        Map<String, Integer> budgets = new HashMap<>(BUDGETS);
        budgets.remove("global budget-status");
        assertThat(numbering(budgeted(false)))
                .containsExactlyInAnyOrderEntriesOf(union(List.of(ALWAYS_ON, GATE, ANALYTICS, budgets)));
    }

    @Test
    void theAlwaysOnStagesKeepTheirNumbersWithAndWithoutEachOptionalStage() {
        List<PipelineSettings> variants = List.of(noGate(defaults), noAnalytics(defaults), noGate(noAnalytics(defaults)),
                noGate(budgeted(true)), noAnalytics(budgeted(true)),
                noGate(noAnalytics(budgeted(false))));
        for (PipelineSettings variant : variants) {
            assertThat(numbering(variant)).as("gate %s, analytics %s, budgets %s", variant.providers().enabled(),
                    variant.analytics().enabled(), variant.budgets().budgets().keySet()).containsAllEntriesOf(ALWAYS_ON);
        }
    }

    @Test
    void withoutAnalyticsTheContinuationEventsStayInClassificationsSubTopology() {
        Map<String, Integer> numbers = numbering(noAnalytics(defaults));

        assertThat(numbers).containsEntry("continuation-events", 3).containsEntry("store provider-state", 5)
                .doesNotContainKeys("store analytics-windows", "analytics-partials-repartition");
    }
}
