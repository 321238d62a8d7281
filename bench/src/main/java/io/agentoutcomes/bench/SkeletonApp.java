package io.agentoutcomes.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The pipeline's shape with none of its work: from its {@link TopologyDescription}, the same sub-topologies, a
 * source per source (on the same topics, by the mapping given), one pass-through processor per processor node with
 * the same edges, a sink per sink, all byte arrays and no state stores. Each processor forwards a record to each child
 * as often, per record it receives, as the pipeline's node did in a measured round ({@code ratio}), so as many
 * records take each path (a sink at the rate its topic was written). What Kafka Streams itself costs for this
 * shape: the floor under the pipeline's stages.
 */
final class SkeletonApp {
    private SkeletonApp() {
    }

    /**
     * The skeleton topology.
     *
     * @param topicOf   the skeleton's topic for a topic a source reads, as the description names it
     * @param sinkOf    the skeleton's topic for a topic a sink writes, as the description names it; for a sink with a
     *                  topic name extractor, for {@code "sink-" + its node name}
     * @param known     the topics a source's pattern is matched against, as the description names them
     * @param ratio     how many records a processor forwards to a child (processor or sink) per record it receives
     */
    static Topology build(TopologyDescription description, Function<String, String> topicOf, Function<String, String> sinkOf,
                          List<String> known, ToDoubleBiFunction<String, String> ratio) {
        Map<String, TopologyDescription.Node> pending = new LinkedHashMap<>();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            sub.nodes().forEach(node -> pending.put(node.name(), node));
        }
        Topology topology = new Topology();
        Set<String> added = new LinkedHashSet<>();
        while (!pending.isEmpty()) {
            int before = pending.size();
            for (TopologyDescription.Node node : List.copyOf(pending.values())) {
                List<String> parents = node.predecessors().stream().map(TopologyDescription.Node::name).toList();
                if (!added.containsAll(parents)) {
                    continue;
                }
                add(topology, node, parents, topicOf, sinkOf, known, ratio);
                added.add(node.name());
                pending.remove(node.name());
            }
            if (pending.size() == before) {
                throw new IllegalStateException("the topology's nodes form a cycle: " + pending.keySet());
            }
        }
        return topology;
    }

    /** Every topic the skeleton reads or writes, as {@code topicOf} and {@code sinkOf} map them. */
    static Set<String> topics(TopologyDescription description, Function<String, String> topicOf, Function<String, String> sinkOf,
                              List<String> known) {
        Set<String> topics = new LinkedHashSet<>();
        for (TopologyDescription.Subtopology sub : description.subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Source source) {
                    sourceTopics(source, known).forEach(t -> topics.add(topicOf.apply(t)));
                } else if (node instanceof TopologyDescription.Sink sink) {
                    topics.add(sinkOf.apply(sinkTopic(sink)));
                }
            }
        }
        return topics;
    }

    /** The topic a sink writes, as the description names it, or {@code "sink-" + its name} for an extractor's. */
    static String sinkTopic(TopologyDescription.Sink sink) {
        return sink.topic() != null ? sink.topic() : "sink-" + sink.name();
    }

    private static List<String> sourceTopics(TopologyDescription.Source source, List<String> known) {
        if (source.topicSet() != null && !source.topicSet().isEmpty()) {
            return List.copyOf(source.topicSet());
        }
        List<String> matching = known.stream().filter(t -> source.topicPattern().matcher(t).matches()).toList();
        return matching.isEmpty() ? List.of("source-" + source.name()) : matching;
    }

    private static void add(Topology topology, TopologyDescription.Node node, List<String> parents,
                            Function<String, String> topicOf, Function<String, String> sinkOf, List<String> known,
                            ToDoubleBiFunction<String, String> ratio) {
        String[] from = parents.toArray(String[]::new);
        if (node instanceof TopologyDescription.Source source) {
            topology.addSource(node.name(), Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
                    sourceTopics(source, known).stream().map(topicOf).toArray(String[]::new));
        } else if (node instanceof TopologyDescription.Sink sink) {
            topology.addSink(node.name(), sinkOf.apply(sinkTopic(sink)), Serdes.ByteArray().serializer(),
                    Serdes.ByteArray().serializer(), from);
        } else {
            List<String> children = node.successors().stream().map(TopologyDescription.Node::name).sorted().toList();
            double[] ratios = children.stream().mapToDouble(child -> ratio.applyAsDouble(node.name(), child)).toArray();
            topology.addProcessor(node.name(), () -> new Forward(children, ratios), from);
        }
    }

    /** A skeleton processor: each record on to each child at the child's ratio (credit kept across records). */
    static final class Forward implements Processor<byte[], byte[], byte[], byte[]> {
        private final List<String> children;
        private final double[] ratios;
        private final double[] credit;
        private ProcessorContext<byte[], byte[]> context;

        Forward(List<String> children, double[] ratios) {
            this.children = new ArrayList<>(children);
            this.ratios = ratios;
            this.credit = new double[ratios.length];
        }

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            for (int i = 0; i < ratios.length; i++) {
                credit[i] += ratios[i];
                while (credit[i] >= 1) {
                    credit[i] -= 1;
                    context.forward(record, children.get(i));
                }
            }
        }
    }
}
