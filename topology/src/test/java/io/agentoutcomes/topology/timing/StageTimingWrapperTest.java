package io.agentoutcomes.topology.timing;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.ResultsPipeline;
import io.agentoutcomes.topology.StageDriver;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

/** The processor wrapper counts every node's calls and times each node's own work, in the whole pipeline. */
class StageTimingWrapperTest {
    private static final String INTAKE = "agent-results-accept-attribute-price";

    /** The Streams settings that turn the wrapper on, with {@code timings} to fill. */
    static Properties timed(StageTimings timings) {
        Properties settings = new Properties();
        settings.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageTimingWrapper.class);
        settings.put(StageTimings.CONFIG, timings);
        return settings;
    }

    /** The processor nodes of the pipeline over the driver's topics (its sources and sinks are no processors). */
    private static Set<String> processorNodes(StageDriver driver) {
        Set<String> names = new TreeSet<>();
        Topology topology = AgentOutcomesTopology.build(driver.topics, PipelineSettings.defaults(), new Properties());
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            sub.nodes().stream().filter(n -> n instanceof TopologyDescription.Processor).forEach(n -> names.add(n.name()));
        }
        for (TopologyDescription.GlobalStore store : topology.describe().globalStores()) {
            names.add(store.processor().name());
        }
        return names;
    }

    private static StageDriver pipeline(Properties settings) {
        return StageDriver.configured((topics, props) -> AgentOutcomesTopology.build(topics, PipelineSettings.defaults(), props),
                topics -> settings);
    }

    @Test
    void everyProcessorNodeOfThePipelineIsTimedAndTheIntakeCountsOneCallPerResult() {
        StageTimings timings = new StageTimings();
        try (StageDriver driver = pipeline(timed(timings))) {
            assertThat(timings.nodes().keySet()).isEqualTo(processorNodes(driver)).contains(INTAKE);
            assertThat(timings.nodes().values()).allSatisfy(node -> assertThat(node.calls()).isZero());

            TestInputTopic<String, AgentResult> results = driver.input(driver.topics.agentResults);
            for (int i = 0; i < 7; i++) {
                results.pipeInput("task-" + i, ResultsPipeline.gpt4oMini("r-" + i, "task-" + i,
                        Usage.newBuilder().setInputTokens(100L).build(), null), T0.plusMillis(i));
            }
            assertThat(driver.output(driver.topics.outcomesClassified).readRecordsToList()).hasSize(7);
            assertThat(timings.nodes().get(INTAKE).calls()).isEqualTo(7);
            assertThat(timings.nodes().get(INTAKE).nanos()).isPositive();
        }
    }

    @Test
    void withoutTimingsHandedOverTheWrapperLeavesTheProcessorsAsTheyAre() {
        Properties settings = new Properties();
        settings.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageTimingWrapper.class);
        try (StageDriver driver = pipeline(settings)) {
            driver.input(driver.topics.agentResults).pipeInput("task-1", ResultsPipeline.gpt4oMini("r-1", "task-1",
                    Usage.newBuilder().setInputTokens(100L).build(), null), T0);
            assertThat(driver.output(driver.topics.outcomesClassified).readRecordsToList()).hasSize(1);
        }
    }

    @Test
    void aNodesTimeIsItsOwnNotThatOfTheNodesItForwardsTo() {
        StageTimings timings = new StageTimings();
        Properties settings = timed(timings);
        try (StageDriver driver = StageDriver.configured((topics, props) -> twoNodes(props), topics -> settings)) {
            driver.bytesInput("in").pipeInput(new byte[] {1}, new byte[] {1});
            driver.bytesInput("in").pipeInput(new byte[] {2}, new byte[] {2});
        }
        StageTimings.Node parent = timings.nodes().get("parent");
        StageTimings.Node slow = timings.nodes().get("slow-child");
        assertThat(parent.calls()).isEqualTo(2);
        assertThat(slow.calls()).isEqualTo(2);
        assertThat(slow.nanos()).isGreaterThanOrEqualTo(2 * SLOW.toNanos());
        // the parent's call lasted as long as the child's, but its own work is next to nothing
        assertThat(parent.nanos()).isLessThan(SLOW.toNanos());
    }

    private static final Duration SLOW = Duration.ofMillis(30);

    /** in → parent (forwards) → slow-child (sleeps {@link #SLOW}) → out, built with the driver's settings. */
    private static Topology twoNodes(Properties props) {
        Properties all = new Properties();
        all.putAll(props);
        all.put(StreamsConfig.APPLICATION_ID_CONFIG, StageDriver.APPLICATION_ID);
        all.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(all)));
        builder.stream("in", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .process(() -> new ContextualProcessor<byte[], byte[], byte[], byte[]>() {
                    @Override
                    public void process(Record<byte[], byte[]> record) {
                        context().forward(record);
                    }
                }, Named.as("parent"))
                .process(() -> new ContextualProcessor<byte[], byte[], byte[], byte[]>() {
                    @Override
                    public void process(Record<byte[], byte[]> record) {
                        try {
                            Thread.sleep(SLOW.toMillis());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        context().forward(record);
                    }
                }, Named.as("slow-child"))
                .to("out", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        return builder.build(all);
    }
}
