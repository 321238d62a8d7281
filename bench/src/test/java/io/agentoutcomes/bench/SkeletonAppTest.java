package io.agentoutcomes.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

class SkeletonAppTest {
    /** The skeleton's topics: the input stays, every other topic is the skeleton's own. */
    private static final Function<String, String> SINK_OF = t -> "s." + t.replace("p.", "");
    private static final Function<String, String> TOPIC_OF = t -> t.equals("p.in") ? "p.in" : SINK_OF.apply(t);

    @Test
    void skeletonHasThePipelinesSubTopologiesNodesAndSinksOnItsOwnTopics() {
        TopologyDescription skeleton = SkeletonApp.build(pipeline().describe(), TOPIC_OF, SINK_OF, List.of(), (parent, child) -> 1)
                .describe();

        assertThat(skeleton.subtopologies()).hasSize(2);
        assertThat(skeleton.subtopologies()).allSatisfy(sub -> assertThat(sub.nodes()).hasSize(
                sub.nodes().stream().anyMatch(n -> n.name().equals("read")) ? 5 : 3));
        assertThat(skeleton.toString())
                .contains("Source: read (topics: [p.in])", "Processor: a (stores: [])", "Sink: write-out (topic: s.out)",
                        "Sink: write-side (topic: s.side)", "Source: read-side (topics: [s.side])", "Sink: write-final (topic: s.final)");
        assertThat(SkeletonApp.topics(pipeline().describe(), TOPIC_OF, SINK_OF, List.of()))
                .containsExactlyInAnyOrder("p.in", "s.out", "s.side", "s.final");
    }

    @Test
    void eachProcessorForwardsAtItsMeasuredRatioAcrossSubTopologies() {
        Map<String, Double> ratios = Map.of("a/write-out", 1.0, "a/b", 0.5, "b/write-side", 1.0, "c/write-final", 1.0);
        Topology skeleton = SkeletonApp.build(pipeline().describe(), TOPIC_OF, SINK_OF, List.of(),
                (parent, child) -> ratios.getOrDefault(parent + "/" + child, 0.0));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "skeleton-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(skeleton, props)) {
            TestInputTopic<byte[], byte[]> in = driver.createInputTopic("p.in", Serdes.ByteArray().serializer(),
                    Serdes.ByteArray().serializer());
            for (String value : List.of("1", "2", "3", "4")) {
                in.pipeInput("k".getBytes(), value.getBytes());
            }
            assertThat(values(driver, "s.out")).containsExactly("1", "2", "3", "4");
            assertThat(values(driver, "s.final")).containsExactly("2", "4");
        }
    }

    @Test
    void flowIsWhatThePipelinesNodesForwardedPerRecordTheyProcessed() {
        StageCostRounds.Flow flow = new StageCostRounds.Flow(pipeline().describe(), Map.of("a", 4L, "b", 2L, "c", 2L),
                Map.of("p.out", 4L, "p.side", 2L, "p.final", 2L), List.of("p.in", "p.out", "p.side", "p.final"));

        assertThat(flow.ratio("a", "write-out")).isEqualTo(1.0);
        assertThat(flow.ratio("a", "b")).isEqualTo(0.5);
        assertThat(flow.ratio("b", "write-side")).isEqualTo(1.0);
        assertThat(flow.ratio("c", "write-final")).isEqualTo(1.0);
    }

    private static List<String> values(TopologyTestDriver driver, String topic) {
        return driver.createOutputTopic(topic, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer())
                .readValuesToList().stream().map(String::new).toList();
    }

    /** read (p.in) → a → {write-out (p.out), b → write-side (p.side)}; read-side (p.side) → c → write-final (p.final). */
    private static Topology pipeline() {
        Topology topology = new Topology();
        topology.addSource("read", "p.in");
        topology.addProcessor("a", Pass::new, "read");
        topology.addSink("write-out", "p.out", "a");
        topology.addProcessor("b", Pass::new, "a");
        topology.addSink("write-side", "p.side", "b");
        topology.addSource("read-side", "p.side");
        topology.addProcessor("c", Pass::new, "read-side");
        topology.addSink("write-final", "p.final", "c");
        return topology;
    }

    private static final class Pass extends ContextualProcessor<Object, Object, Object, Object> {
        @Override
        public void process(Record<Object, Object> record) {
            context().forward(record);
        }
    }
}
