package io.agentoutcomes.topology;

import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The one test fixture for topologies: a {@link TopologyTestDriver} over the project's topics with an in-memory
 * schema registry of its own, for the whole pipeline or one stage alone, and typed input and output topics.
 * Close it (try-with-resources or an {@code @AfterEach}) to drop the driver's state and the registry.
 */
public final class StageDriver implements AutoCloseable {
    /** The wall clock and record time every test starts at. */
    public static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private final String scope = "stage-" + UUID.randomUUID();
    public final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope));
    public final TopologyTestDriver driver;

    private StageDriver(Function<Topics, Topology> topology, Properties extra) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "stage-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.putAll(extra);
        driver = new TopologyTestDriver(topology.apply(topics), props, T0);
    }

    /** The whole pipeline, as {@code topology} builds it over the driver's topics. */
    public static StageDriver of(Function<Topics, Topology> topology) {
        return new StageDriver(topology, new Properties());
    }

    /** As above, with Streams settings of the test's own (handlers, say). */
    public static StageDriver of(Function<Topics, Topology> topology, Properties streamsConfig) {
        return new StageDriver(topology, streamsConfig);
    }

    /** One stage alone: {@code stage} adds it to a builder of its own. */
    public static StageDriver stage(java.util.function.BiConsumer<StreamsBuilder, Topics> stage) {
        return new StageDriver(topics -> {
            StreamsBuilder builder = new StreamsBuilder();
            stage.accept(builder, topics);
            return builder.build();
        }, new Properties());
    }

    /** The default pipeline with default settings. */
    public static StageDriver pipeline() {
        return of(AgentOutcomesTopology::build);
    }

    public <V> TestInputTopic<String, V> input(Topics.Topic<String, V> topic) {
        return driver.createInputTopic(topic.name(), new StringSerializer(), topic.valueSerde().serializer());
    }

    /** A topic written by name with the value serde of {@code like} (the retry-delay tiers share one). */
    public <V> TestInputTopic<String, V> input(String name, Topics.Topic<String, V> like) {
        return driver.createInputTopic(name, new StringSerializer(), like.valueSerde().serializer());
    }

    public TestInputTopic<byte[], byte[]> bytesInput(String topic) {
        return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public <V> TestOutputTopic<String, V> output(Topics.Topic<String, V> topic) {
        return driver.createOutputTopic(topic.name(), new StringDeserializer(), topic.valueSerde().deserializer());
    }

    public TestOutputTopic<byte[], byte[]> bytesOutput(String topic) {
        return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    public void advance(Duration wallClock) {
        driver.advanceWallClockTime(wallClock);
    }

    @Override
    public void close() {
        driver.close();
        MockSchemaRegistry.dropScope(scope);
    }
}
