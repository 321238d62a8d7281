package io.agentoutcomes.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.topic.Topics;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AgentOutcomesTopologyTest {
    private final String scope = "topology-" + UUID.randomUUID();
    private final Topics topics = new Topics("prod.", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
            RetryTiers.defaults().names());

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(scope);
    }

    @Test
    void topicNamesCarryThePrefix() {
        assertThat(topics.all()).extracting(Topics.Topic::name).containsExactly("prod.agent-results",
                "prod.agent-results-json", "prod.node-finished", "prod.node-finished-json", "prod.continuation-events",
                "prod.continuation-events-json", "otlp_spans", "prod.rejected-input", "prod.outcomes-classified",
                "prod.retry-delay-1s", "prod.retry-delay-2s", "prod.retry-delay-5s", "prod.retry-delay-10s",
                "prod.retry-delay-30s", "prod.retry-delay-long", "prod.retry-ready", "prod.dead-letter",
                "prod.redrives", "prod.compensations", "prod.verifications", "prod.replay-state", "prod.agent-metrics-1m",
                "prod.agent-metrics-1h", "prod.provider-health", "prod.budget-alerts", "prod.budget-status");
        assertThat(topics.nodeFinished.valueSchema()).hasValue(NodeFinished.getClassSchema());
        assertThat(topics.agentResultsJson.valueSchema()).isEmpty();
    }

    @Test
    void pipelineReadsEveryInputTopic() {
        TopologyDescription description = AgentOutcomesTopology.build(topics, PipelineSettings.defaults(), new Properties()).describe();

        Set<String> sources = description.subtopologies().stream()
                .flatMap(s -> s.nodes().stream())
                .filter(TopologyDescription.Source.class::isInstance)
                .map(TopologyDescription.Source.class::cast)
                .flatMap(n -> n.topicSet() != null ? n.topicSet().stream() : Stream.of(n.topicPattern().pattern()))
                .collect(Collectors.toSet());
        // The delay topics by pattern: every tier of the prefix, today's and those other settings made before.
        assertThat(sources).containsExactlyInAnyOrder("prod.agent-results", "prod.node-finished", "prod.continuation-events",
                "prod.agent-results-json", "prod.node-finished-json", "prod.continuation-events-json",
                // the OpenTelemetry Collector's, named in full: no prefix
                "otlp_spans",
                "\\Qprod.retry-delay-\\E[A-Za-z0-9]+", "analytics-partials-repartition",
                "agent-results-by-key-repartition", "node-finished-by-key-repartition",
                // the provider gate: due retries and tallies of outcomes, both keyed by provider
                "provider-retries-repartition", "provider-signals-repartition");
    }

    @Test
    void topicSerdesRoundTripThroughTheRegistry() {
        NodeFinished event = NodeFinished.newBuilder().setJobId("j").setNodeId("n").setAttempt(0)
                .setResultType(StepResultType.SUCCESS).build();
        Topics.Topic<String, NodeFinished> topic = topics.nodeFinished;

        byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), event);

        assertThat(topic.valueSerde().deserializer().deserialize(topic.name(), bytes)).isEqualTo(event);
        assertThat(MockSchemaRegistry.clientFor("mock://" + scope).latest("prod.node-finished-value").version()).isEqualTo(1);
    }
}
