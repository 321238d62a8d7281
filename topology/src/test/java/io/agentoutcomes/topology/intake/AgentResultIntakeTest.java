package io.agentoutcomes.topology.intake;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.ResultsPipeline;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.pricing.PriceResults;
import io.agentoutcomes.topology.topic.Topics;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An agent result's intake, attribution and pricing are one processor node for a result keyed by its task (issue 30,
 * lever 2), and the same steps, once, for a result keyed otherwise after it came back from the repartition topic.
 */
class AgentResultIntakeTest {
    private final ResultsPipeline pipeline = new ResultsPipeline();

    @AfterEach
    void close() {
        pipeline.close();
    }

    /** 10 000 input tokens of gpt-4o-mini (0.15 USD a million), no cost, from tenant {@code acme} by header. */
    private void publish(String key) {
        AgentResult result = ResultsPipeline.gpt4oMini("r-1", "task-1", Usage.newBuilder().setInputTokens(10_000L).build(), null);
        pipeline.results.pipeInput(new TestRecord<>(key, result, StageDriver.headers(HeaderNames.TENANT_ID, "acme"), T0));
    }

    private void assertAttributedAndPricedOnce() {
        List<TestRecord<String, ClassifiedOutcome>> out = pipeline.classified.readRecordsToList();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).key()).isEqualTo("task-1");
        AgentResult result = out.get(0).value().getAgentResult();
        assertThat(result.getAttribution()).isEqualTo(new Attribution("acme", null, null, List.of()));
        assertThat(Money.toDecimal(result.getExecution().getCost().getTotal())).isEqualByComparingTo("0.0015");
        assertThat(result.getExecution().getCost().getSource()).isEqualTo(CostSource.COMPUTED);
        assertThat(pipeline.pricingCount(PriceResults.COMPUTED)).isEqualTo(1.0);
    }

    @Test
    void aResultKeyedByItsTaskIsAttributedAndPricedOnce() {
        publish("task-1");

        assertAttributedAndPricedOnce();
    }

    @Test
    void aResultKeyedOtherwiseIsAttributedAndPricedOnceAfterItsReKeying() {
        publish("not-the-task");

        assertAttributedAndPricedOnce();
    }

    @Test
    void aResultWithoutAKeyIsAttributedAndPricedOnceAfterItsReKeying() {
        publish(null);

        assertAttributedAndPricedOnce();
    }

    @Test
    void aResultKeyedByItsTaskPassesOneNodeBetweenItsSourceAndClassification() {
        String scope = "intake-" + UUID.randomUUID();
        Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                RetryTiers.defaults().names());
        try {
            TopologyDescription description = AgentOutcomesTopology.build(topics, PipelineSettings.defaults(),
                    new Properties()).describe();
            TopologyDescription.Node source = description.subtopologies().stream().flatMap(s -> s.nodes().stream())
                    .filter(node -> node instanceof TopologyDescription.Source read && read.topicSet() != null
                            && read.topicSet().contains("agent-results"))
                    .findFirst().orElseThrow();

            assertThat(successors(source)).containsExactly(Intake.AGENT_RESULTS_NODE);
            TopologyDescription.Node intake = source.successors().iterator().next();
            assertThat(successors(intake)).containsExactly("agent-results-keyed", "agent-results-rekey");
            TopologyDescription.Node keyed = node(description, "agent-results-keyed");
            assertThat(successors(keyed)).containsExactly("classify-agent-results");
        } finally {
            MockSchemaRegistry.dropScope(scope);
        }
    }

    private static TopologyDescription.Node node(TopologyDescription description, String name) {
        return description.subtopologies().stream().flatMap(s -> s.nodes().stream())
                .filter(node -> node.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no node " + name));
    }

    private static Set<String> successors(TopologyDescription.Node node) {
        Set<String> names = new TreeSet<>();
        node.successors().forEach(next -> names.add(next.name()));
        return names;
    }
}
