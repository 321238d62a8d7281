package io.agentoutcomes.bench;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.topic.Topics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** A Kafka Streams application a round runs: the full pipeline, or a byte-array passthrough on the same broker. */
interface AppUnderTest extends AutoCloseable {

    String applicationId();

    /** Whether a thread is one of this application's stream threads ({@code <application.id>-<uuid>-StreamThread-<n>}). */
    default boolean isStreamThread(String threadName) {
        return threadName.startsWith(applicationId() + "-") && threadName.matches(".*-StreamThread-\\d+$");
    }

    KafkaStreams.State state();

    /** Kafka Streams' metrics and its clients'. */
    Map<MetricName, ? extends Metric> metrics();

    /** A Kafka Streams metric's value: summed over its instances (stream threads, producers) whose tags match. */
    default double metric(String group, String name) {
        return metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name))
                .mapToDouble(e -> e.getValue().metricValue() instanceof Number n ? n.doubleValue() : 0)
                .filter(Double::isFinite).sum();
    }

    /** Waits until Kafka Streams is RUNNING; fails on ERROR or after {@code timeout}. */
    default void awaitRunning(Duration timeout) throws InterruptedException {
        awaitProcessing(timeout);
    }

    /**
     * Waits until the application processes: Kafka Streams is RUNNING, or its consumers have fetched records already
     * (with several stream threads, one may process while the client still says REBALANCING). Fails on ERROR or after
     * {@code timeout}.
     *
     * @return when it began (System.nanoTime)
     */
    default long awaitProcessing(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (state() != KafkaStreams.State.RUNNING && metric("consumer-fetch-manager-metrics", "records-consumed-total") == 0) {
            if (state() == KafkaStreams.State.ERROR || state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException(applicationId() + " ended in state " + state());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(applicationId() + " not RUNNING after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(1);
        }
        return System.nanoTime();
    }

    @Override
    void close();

    /**
     * The whole service as {@code agent-outcomes run} starts it (its topology, Streams settings, handlers, topics),
     * on the given broker and registry; {@code settings} are further service settings ({@code analytics.enabled},
     * {@code num.stream.threads}, ...).
     */
    static AppUnderTest pipeline(BenchCluster cluster, String applicationId, String topicPrefix, int partitions, Path dataDir,
                                 Map<String, String> settings) throws IOException {
        AgentOutcomesService service = AgentOutcomesService.start(pipelineConfig(cluster, applicationId, topicPrefix, partitions,
                dataDir, settings));
        return new Running(applicationId, service::streamsState, service::streamsMetrics, service::close);
    }

    /**
     * Creates the pipeline's topics and the internal topics of an application id ahead of its round, as the service
     * would at its start: an exactly-once producer writing to partitions created moments before can hit
     * OUT_OF_ORDER_SEQUENCE (KAFKA-15591 family) and re-initialize its task, a cost of the first start, not of
     * throughput.
     */
    static void createPipelineTopics(BenchCluster cluster, String applicationId, String topicPrefix, int partitions,
                                     Map<String, String> settings) {
        Shape shape = pipelineShape(cluster, applicationId, topicPrefix, partitions, settings);
        List<TopicProvisioner.TopicSpec> specs = new ArrayList<>(TopicProvisioner.specsOf(shape.topics(), partitions));
        specs.addAll(TopicProvisioner.internalTopicsOf(shape.topology().describe(), applicationId, partitions));
        TopicProvisioner.ensure(cluster.clientConfig(), specs, (short) -1);
    }

    /** The pipeline's topology and topics as the service builds them with these settings. */
    record Shape(Topology topology, Topics topics) {
        /** The names of the pipeline's own (not internal) topics. */
        List<String> topicNames() {
            return TopicProvisioner.specsOf(topics, 1).stream().map(TopicProvisioner.TopicSpec::name).toList();
        }
    }

    static Shape pipelineShape(BenchCluster cluster, String applicationId, String topicPrefix, int partitions,
                               Map<String, String> settings) {
        AppConfig config = pipelineConfig(cluster, applicationId, topicPrefix, partitions, Path.of("unused"), settings);
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl()),
                config.pipeline().retry().tiers().names(), config.otlpSpansTopic());
        Properties props = new Properties();
        props.putAll(config.kafka());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        return new Shape(AgentOutcomesTopology.build(topics, config.pipeline(), props), topics);
    }

    private static AppConfig pipelineConfig(BenchCluster cluster, String applicationId, String topicPrefix, int partitions,
                                            Path dataDir, Map<String, String> settings) {
        Map<String, String> overrides = new HashMap<>(settings);
        overrides.put(ConfigLoader.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        overrides.put(ConfigLoader.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        overrides.put(ConfigLoader.APPLICATION_ID, applicationId);
        overrides.put(ConfigLoader.TOPIC_PREFIX, topicPrefix);
        overrides.put(ConfigLoader.TOPIC_PARTITIONS, String.valueOf(partitions));
        overrides.put(ConfigLoader.DATA_DIR, dataDir.toString());
        overrides.put(ConfigLoader.HTTP_PORT, "0");
        // each pipeline its own OTLP topic, under its prefix (the service's default names it in full: otlp_spans)
        overrides.putIfAbsent(AgentOutcomesConfig.INPUT_OTLP_TOPIC, topicPrefix + TopicNames.OTLP_SPANS);
        return ConfigLoader.load(Optional.empty(), Map.of(), overrides);
    }

    /**
     * Bytes in, the same bytes out, exactly-once: the ceiling of any topology on this broker. {@code settings} are
     * further Streams settings ({@code num.stream.threads}, ...).
     */
    static AppUnderTest passthrough(BenchCluster cluster, String applicationId, String from, String to, Path stateDir,
                                    Map<String, String> settings) {
        Properties props = passthroughProperties(cluster, applicationId, stateDir, settings);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(from, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .to(to, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        KafkaStreams streams = new KafkaStreams(builder.build(props), props);
        streams.start();
        return new Running(applicationId, streams::state, streams::metrics, () -> streams.close(Duration.ofSeconds(30)));
    }

    /** A topology of byte arrays (the skeleton of the pipeline's shape), with the passthrough's settings. */
    static AppUnderTest bytes(BenchCluster cluster, String applicationId, Topology topology, Path stateDir,
                              Map<String, String> settings) {
        KafkaStreams streams = new KafkaStreams(topology, passthroughProperties(cluster, applicationId, stateDir, settings));
        streams.start();
        return new Running(applicationId, streams::state, streams::metrics, () -> streams.close(Duration.ofSeconds(30)));
    }

    /** A passthrough's Streams settings: exactly-once unless {@code settings} say otherwise. */
    private static Properties passthroughProperties(BenchCluster cluster, String applicationId, Path stateDir,
                                                    Map<String, String> settings) {
        Properties props = new Properties();
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.putAll(settings);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        return props;
    }

    /** How much an application writes per input record: what a matched passthrough copies. */
    record WriteProfile(double recordsPerInput, double bytesPerInput, double partitionsPerTransaction) {
    }

    /**
     * A byte passthrough that writes as much as {@code pipeline} does per input record: each input to {@code to}
     * as it is, plus filler records (of as many bytes as the pipeline writes beyond a copy of the input) spread
     * over {@code extraTopics} (topics of {@code partitions} partitions each, chosen so a transaction spans about as
     * many partitions as the pipeline's). What the pipeline's own writes cost, with no work between.
     */
    static AppUnderTest matchedPassthrough(BenchCluster cluster, String applicationId, String from, String to,
                                           List<String> extraTopics, Path stateDir, Map<String, String> settings,
                                           WriteProfile pipeline, WriteProfile plain) {
        Properties props = passthroughProperties(cluster, applicationId, stateDir, settings);
        double extraPerInput = Math.max(0, pipeline.recordsPerInput() - plain.recordsPerInput());
        int fillerBytes = extraPerInput == 0 ? 0 : (int) Math.max(0,
                (pipeline.bytesPerInput() - plain.bytesPerInput()) / extraPerInput);
        Topology topology = new Topology();
        topology.addSource("in", Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(), from);
        topology.addProcessor("fan-out", () -> new MatchedFanOut(extraPerInput, fillerBytes, extraTopics.size()), "in");
        topology.addSink("out", to, Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(), "fan-out");
        for (int i = 0; i < extraTopics.size(); i++) {
            topology.addSink("extra-" + i, extraTopics.get(i), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(),
                    "fan-out");
        }
        KafkaStreams streams = new KafkaStreams(topology, props);
        streams.start();
        return new Running(applicationId, streams::state, streams::metrics, () -> streams.close(Duration.ofSeconds(30)));
    }

    /**
     * How many filler topics make a transaction span about as many partitions as the pipeline's; at least one when the
     * pipeline writes more records per input than the plain copy (fillers never go to the counted output topic).
     */
    static int extraTopicsFor(WriteProfile pipeline, WriteProfile plain, int partitions) {
        int matching = (int) Math.max(0, Math.round((pipeline.partitionsPerTransaction() - plain.partitionsPerTransaction())
                / partitions));
        return pipeline.recordsPerInput() > plain.recordsPerInput() ? Math.max(1, matching) : matching;
    }

    /** The matched passthrough's one processor: each input on, then its share of filler records. */
    final class MatchedFanOut implements Processor<byte[], byte[], byte[], byte[]> {
        private final double extraPerInput;
        private final byte[] filler;
        private final int extraTopics;
        private ProcessorContext<byte[], byte[]> context;
        private double credit;
        private long sent;

        MatchedFanOut(double extraPerInput, int fillerBytes, int extraTopics) {
            this.extraPerInput = extraPerInput;
            this.filler = new byte[fillerBytes];
            this.extraTopics = extraTopics;
        }

        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            this.context = context;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            context.forward(record, "out");
            credit += extraPerInput;
            while (credit >= 1) {
                credit -= 1;
                sent++;
                byte[] key = ByteBuffer.allocate(Long.BYTES).putLong(sent).array();
                context.forward(record.withKey(key).withValue(filler), "extra-" + (int) (sent % extraTopics));
            }
        }
    }

    /** A started application: its id, where its state is read, how it is closed. */
    record Running(String applicationId, Supplier<KafkaStreams.State> stateSource,
                   Supplier<Map<MetricName, ? extends Metric>> metricsSource, Runnable closer) implements AppUnderTest {
        @Override
        public KafkaStreams.State state() {
            return stateSource.get();
        }

        @Override
        public Map<MetricName, ? extends Metric> metrics() {
            return metricsSource.get();
        }

        @Override
        public void close() {
            closer.run();
        }
    }

    /** Opens an application; used where a round starts one. */
    interface Starter {
        AppUnderTest start() throws IOException;
    }

}
