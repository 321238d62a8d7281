package io.agentoutcomes.bench;

import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.bench.ThroughputReport.Round;
import io.agentoutcomes.topology.topic.Topics;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;

/**
 * {@code throughput --stage-costs}: in each round, after the plain pipeline, the pipeline again with every processor
 * timed ({@link StageCostWrapper}), then the skeleton of its shape ({@link SkeletonApp}) forwarding as many records
 * along each path as the timed pipeline did. Each has topics of its own, created before the rounds.
 */
final class StageCostRounds {
    /** What one round measured: the timed pipeline, its stages per input record, the skeleton. */
    record Measured(Round timed, List<StageCosts.StageFigures> stages, Round skeleton) {
    }

    private final BenchCluster cluster;
    private final long records;
    private final int partitions;

    StageCostRounds(BenchCluster cluster, long records, int partitions) {
        this.cluster = cluster;
        this.records = records;
        this.partitions = partitions;
    }

    /** The timed pipeline's settings: the pipeline's, with the wrapper. */
    static Map<String, String> timedSettings(Map<String, String> pipeline) {
        Map<String, String> timed = new HashMap<>(pipeline);
        timed.put(StreamsConfig.PROCESSOR_WRAPPER_CLASS_CONFIG, StageCostWrapper.class.getName());
        return timed;
    }

    /** The names of a round's two applications and where the timed pipeline's and the skeleton's topics are. */
    record Names(String timedId, String timedPrefix, String skeletonId, String skeletonPrefix) {
        static Names of(String prefix, String tag, boolean json) {
            String timedTag = tag + "t";
            return new Names(prefix + "pipeline-" + timedTag, json ? prefix + timedTag + "." : prefix,
                    prefix + "skeleton-" + tag, prefix + "skeleton-" + tag + ".");
        }
    }

    /** Creates a round's topics ahead (as the suite does for the pipeline): the timed pipeline's, the skeleton's. */
    void prepare(Names names, String inputTopic, boolean json, Map<String, String> pipeline) {
        Map<String, String> timed = timedSettings(pipeline);
        AppUnderTest.createPipelineTopics(cluster, names.timedId(), names.timedPrefix(), partitions, timed);
        AppUnderTest.Shape shape = AppUnderTest.pipelineShape(cluster, names.timedId(), names.timedPrefix(), partitions, timed);
        Set<String> topics = new HashSet<>(SkeletonApp.topics(shape.topology().describe(),
                topicMapping(names, inputTopic, json), sinkMapping(names), shape.topicNames()));
        topics.remove(inputTopic);
        TopicProvisioner.ensure(cluster.clientConfig(), topics.stream()
                .map(t -> new TopicProvisioner.TopicSpec(t, partitions, Topics.Cleanup.DELETE)).toList(), (short) -1);
    }

    /** The skeleton's topic for a topic the timed pipeline reads: its input is the variant's input, the rest its own. */
    private static Function<String, String> topicMapping(Names names, String inputTopic, boolean json) {
        String pipelineInput = names.timedPrefix() + (json ? TopicNames.AGENT_RESULTS_JSON : TopicNames.AGENT_RESULTS);
        Function<String, String> own = sinkMapping(names);
        return topic -> topic.equals(pipelineInput) ? inputTopic : own.apply(topic);
    }

    /** The skeleton's topic for a topic the timed pipeline writes: its own, never the input. */
    private static Function<String, String> sinkMapping(Names names) {
        return topic -> names.skeletonPrefix()
                + (topic.startsWith(names.timedPrefix()) ? topic.substring(names.timedPrefix().length()) : topic);
    }

    /** Runs the timed pipeline, then the skeleton; each reads the variant's input from its start. */
    Measured run(Names names, String inputTopic, boolean json, Map<String, String> pipeline, Map<String, String> both)
            throws Exception {
        Map<String, String> timed = timedSettings(pipeline);
        Round t = RoundMeasure.measure(cluster, records, names.timedPrefix() + TopicNames.OUTCOMES_CLASSIFIED, names.timedId(),
                () -> AppUnderTest.pipeline(cluster, names.timedId(), names.timedPrefix(), partitions,
                        cluster.dir().resolve(names.timedId()), timed));
        StageCosts costs = StageCosts.of(names.timedId());
        AppUnderTest.Shape shape = AppUnderTest.pipelineShape(cluster, names.timedId(), names.timedPrefix(), partitions, timed);
        TopologyDescription description = shape.topology().describe();
        Function<String, String> topicOf = topicMapping(names, inputTopic, json);
        Flow flow = new Flow(description, costs.calls(), written(names.timedId(), shape.topicNames()), shape.topicNames());
        var skeletonTopology = SkeletonApp.build(description, topicOf, sinkMapping(names), shape.topicNames(), flow::ratio);
        Round s = RoundMeasure.measure(cluster, records, sinkMapping(names).apply(names.timedPrefix() + TopicNames.OUTCOMES_CLASSIFIED),
                names.skeletonId(), () -> AppUnderTest.bytes(cluster, names.skeletonId(), skeletonTopology,
                        cluster.dir().resolve(names.skeletonId()), both));
        return new Measured(t, costs.perRecord(records), s);
    }

    /** Records the timed pipeline wrote per topic, internal topics under their names as the description gives them. */
    private static Map<String, Long> written(String applicationId, List<String> own) {
        Map<String, Long> written = new HashMap<>();
        for (Map.Entry<String, LongAdder> topic : WriteCounting.of(applicationId).recordsByTopic.entrySet()) {
            String name = topic.getKey();
            String internal = applicationId + "-";
            written.put(!own.contains(name) && name.startsWith(internal) ? name.substring(internal.length()) : name,
                    topic.getValue().sum());
        }
        return written;
    }

    /** How many records the pipeline's nodes forwarded along each edge, per record in, from one measured round. */
    static final class Flow {
        private final Map<String, TopologyDescription.Node> nodes = new HashMap<>();
        private final Map<String, Long> calls;
        private final Map<String, Long> written;
        private final Map<String, Integer> sinksPerTopic = new HashMap<>();
        private final long extractorWrites;

        Flow(TopologyDescription description, Map<String, Long> calls, Map<String, Long> written, List<String> own) {
            this.calls = calls;
            this.written = written;
            description.subtopologies().forEach(sub -> sub.nodes().forEach(n -> nodes.put(n.name(), n)));
            int extractors = 0;
            for (TopologyDescription.Node node : nodes.values()) {
                if (node instanceof TopologyDescription.Sink sink) {
                    sinksPerTopic.merge(SkeletonApp.sinkTopic(sink), 1, Integer::sum);
                    extractors += sink.topic() == null ? 1 : 0;
                }
            }
            // a sink that picks its topic per record (the retry tiers) gets what went to the pipeline's own topics
            // no fixed sink writes
            long unclaimed = own.stream().filter(t -> !sinksPerTopic.containsKey(t)).mapToLong(t -> written.getOrDefault(t, 0L)).sum();
            this.extractorWrites = extractors == 0 ? 0 : unclaimed / extractors;
        }

        /** Records {@code parent} forwarded to {@code child} per record it processed; within 1 % of 1 taken as 1. */
        double ratio(String parent, String child) {
            long in = calls.getOrDefault(parent, 0L);
            if (in == 0) {
                return 0;
            }
            TopologyDescription.Node node = nodes.get(child);
            double out;
            if (node instanceof TopologyDescription.Sink sink) {
                out = sink.topic() == null ? extractorWrites
                        : (double) written.getOrDefault(sink.topic(), 0L) / activeSinks(sink.topic());
                return snap(out / in);
            }
            long fromProcessors = node.predecessors().stream().filter(p -> !(p instanceof TopologyDescription.Source))
                    .mapToLong(p -> calls.getOrDefault(p.name(), 0L)).sum();
            return snap((double) calls.getOrDefault(child, 0L) / fromProcessors);
        }

        /**
         * The sinks of a topic whose parents processed records in the round: the writes to a topic are shared among
         * those only (the OTLP input's sink to agent-results, idle while JSON comes in, takes no share of them).
         */
        private long activeSinks(String topic) {
            long active = nodes.values().stream().filter(n -> n instanceof TopologyDescription.Sink sink
                    && topic.equals(sink.topic()) && sink.predecessors().stream()
                            .anyMatch(p -> calls.getOrDefault(p.name(), 0L) > 0)).count();
            return Math.max(1, active);
        }

        private static double snap(double ratio) {
            return Math.abs(ratio - 1) < 0.01 ? 1 : ratio;
        }
    }
}
