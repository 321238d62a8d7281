package io.agentoutcomes.bench;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.Topics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/** A Kafka Streams application a round runs: the full pipeline, or a byte-array passthrough on the same broker. */
interface AppUnderTest extends AutoCloseable {

    String applicationId();

    /** Whether a thread is one of this application's stream threads ({@code <application.id>-<uuid>-StreamThread-<n>}). */
    default boolean isStreamThread(String threadName) {
        return threadName.startsWith(applicationId() + "-") && threadName.matches(".*-StreamThread-\\d+$");
    }

    KafkaStreams.State state();

    /** Waits until Kafka Streams is RUNNING; fails on ERROR or after {@code timeout}. */
    default void awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (state() != KafkaStreams.State.RUNNING) {
            if (state() == KafkaStreams.State.ERROR || state() == KafkaStreams.State.NOT_RUNNING) {
                throw new IllegalStateException(applicationId() + " ended in state " + state());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(applicationId() + " not RUNNING after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(1);
        }
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
        return new Running(applicationId, service::streamsState, service::close);
    }

    /**
     * Creates the pipeline's topics and the internal topics of an application id ahead of its round, as the service
     * would at its start: an exactly-once producer writing to partitions created moments before can hit
     * OUT_OF_ORDER_SEQUENCE (KAFKA-15591 family) and re-initialize its task, a cost of the first start, not of
     * throughput.
     */
    static void createPipelineTopics(BenchCluster cluster, String applicationId, String topicPrefix, int partitions,
                                     Map<String, String> settings) {
        AppConfig config = pipelineConfig(cluster, applicationId, topicPrefix, partitions, Path.of("unused"), settings);
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl()),
                config.retryPolicy().tiers());
        Properties props = new Properties();
        props.putAll(config.kafka());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        Topology topology = AgentOutcomesTopology.build(topics, config.retryPolicy(), config.analytics(), config.replayLimits(),
                config.inputLimits(), props);
        List<TopicProvisioner.TopicSpec> specs = new ArrayList<>(TopicProvisioner.specsOf(topics, partitions));
        specs.addAll(TopicProvisioner.internalTopicsOf(topology.describe(), applicationId, partitions));
        TopicProvisioner.ensure(cluster.clientConfig(), specs, (short) -1);
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
        return ConfigLoader.load(Optional.empty(), Map.of(), overrides);
    }

    /**
     * Bytes in, the same bytes out, exactly-once: the ceiling of any topology on this broker. {@code settings} are
     * further Streams settings ({@code num.stream.threads}, ...).
     */
    static AppUnderTest passthrough(BenchCluster cluster, String applicationId, String from, String to, Path stateDir,
                                    Map<String, String> settings) {
        Properties props = new Properties();
        props.putAll(settings);
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(from, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .to(to, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        KafkaStreams streams = new KafkaStreams(builder.build(props), props);
        streams.start();
        return new Running(applicationId, streams::state, () -> streams.close(Duration.ofSeconds(30)));
    }

    /** A started application: its id, where its state is read, how it is closed. */
    record Running(String applicationId, Supplier<KafkaStreams.State> stateSource, Runnable closer) implements AppUnderTest {
        @Override
        public KafkaStreams.State state() {
            return stateSource.get();
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
