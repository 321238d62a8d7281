package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.MetricsConfig;
import io.agentoutcomes.app.metrics.StageTimingMeters;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.timing.StageTimingWrapper;
import io.agentoutcomes.topology.topic.Topics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agent_outcomes_stage_process_seconds{node}} on the service's registry, from its own Streams settings and
 * topology: as many calls of the intake node as results in, and no such meter with {@code metrics.stage.timings.enabled=false}.
 */
class StageTimingMetersTest {
    private static final String INTAKE = "agent-results-accept-attribute-price";
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final Pattern SAMPLE = Pattern.compile("^(agent_outcomes_stage_process_seconds_(?:count|sum))\\{node=\"([^\"]+)\"} (\\S+)$",
            Pattern.MULTILINE);

    @TempDir
    Path dataDir;

    private final String scope = "stage-timings-" + UUID.randomUUID();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @AfterEach
    void release() {
        registry.close();
        MockSchemaRegistry.dropScope(scope);
    }

    /** The service's topology with its Streams settings, meters registered as the service does, {@code results} fed. */
    private String scrapeAfter(int results, Map<String, String> settings) {
        Map<String, String> overrides = new HashMap<>(settings);
        overrides.put(ConfigLoader.BOOTSTRAP_SERVERS, "localhost:9092");
        overrides.put(ConfigLoader.DATA_DIR, dataDir.toString());
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), overrides);
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());
        Properties props = StreamsProperties.of(config, Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092"), topics);
        try (TopologyTestDriver driver = new TopologyTestDriver(AgentOutcomesTopology.build(topics, config.pipeline(), props),
                props, T0)) {
            StageTimingMeters.register(registry, props);
            TestInputTopic<String, AgentResult> in = driver.createInputTopic(topics.agentResults.name(), new StringSerializer(),
                    topics.agentResults.valueSerde().serializer());
            for (int i = 0; i < results; i++) {
                in.pipeInput("task-" + i, result("r-" + i, "task-" + i), T0.plusMillis(i));
            }
            assertThat(driver.createOutputTopic(topics.outcomesClassified.name(), new StringDeserializer(),
                    topics.outcomesClassified.valueSerde().deserializer()).readValuesToList()).hasSize(results);
            return registry.scrape();
        }
    }

    private static AgentResult result(String resultId, String taskId) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId("summarizer").setTaskId(taskId)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai")
                        .setTimestamp(T0.toEpochMilli()).build())
                .setOutcome(Success.newBuilder().build()).build();
    }

    /** The sample of a node, e.g. {@code agent_outcomes_stage_process_seconds_count}; null if absent. */
    private static Double sample(String scrape, String name, String node) {
        Matcher m = SAMPLE.matcher(scrape);
        while (m.find()) {
            if (m.group(1).equals(name) && m.group(2).equals(node)) {
                return Double.parseDouble(m.group(3));
            }
        }
        return null;
    }

    @Test
    void theIntakeNodeCountsOneCallPerResultAndItsOwnTime() throws IOException {
        String scrape = scrapeAfter(5, Map.of(MetricsConfig.METRICS_STAGE_TIMINGS_ENABLED, "true"));

        assertThat(scrape).contains("# TYPE agent_outcomes_stage_process_seconds summary");
        assertThat(sample(scrape, "agent_outcomes_stage_process_seconds_count", INTAKE)).isEqualTo(5.0);
        assertThat(sample(scrape, "agent_outcomes_stage_process_seconds_sum", INTAKE)).isPositive();
        // every node a series from the start: the replay fold saw no node event
        assertThat(sample(scrape, "agent_outcomes_stage_process_seconds_count", "replay-fold")).isEqualTo(0.0);
        // the family's share of a scrape, for docs/operations.md
        Files.writeString(Path.of("target", "stage-timings-scrape.txt"), scrape.lines()
                .filter(line -> line.contains("agent_outcomes_stage_process")).map(line -> line + "\n").collect(Collectors.joining()));
    }

    @Test
    void offByDefault() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ConfigLoader.BOOTSTRAP_SERVERS, "localhost:9092",
                ConfigLoader.DATA_DIR, dataDir.toString()));
        assertThat(config.metrics().stageTimings()).isFalse();
        assertThat(scrapeAfter(5, Map.of())).doesNotContain("agent_outcomes_stage_process");
    }

    @Test
    void offLeavesTheProcessorsUnwrappedAndTheMeterAbsent() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ConfigLoader.BOOTSTRAP_SERVERS, "localhost:9092",
                ConfigLoader.DATA_DIR, dataDir.toString(), MetricsConfig.METRICS_STAGE_TIMINGS_ENABLED, "false"));
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());
        assertThat(StreamsProperties.of(config, Map.of(), topics)).doesNotContainKey(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG);

        String scrape = scrapeAfter(5, Map.of(MetricsConfig.METRICS_STAGE_TIMINGS_ENABLED, "false"));

        assertThat(scrape).doesNotContain("agent_outcomes_stage_process");
    }

    @Test
    void aWrapperOfTheOperatorsOwnReplacesTheTimings() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ConfigLoader.BOOTSTRAP_SERVERS, "localhost:9092",
                ConfigLoader.DATA_DIR, dataDir.toString(), MetricsConfig.METRICS_STAGE_TIMINGS_ENABLED, "true"));
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());

        assertThat(StreamsProperties.of(config, Map.of(), topics))
                .containsEntry(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageTimingWrapper.class);
        assertThat(StreamsProperties.of(config, Map.of(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, "com.example.Own"), topics))
                .containsEntry(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, "com.example.Own");
    }
}
