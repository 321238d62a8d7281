package io.agentoutcomes.topology;

import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.topic.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The one test fixture for topologies: a {@link TopologyTestDriver} over the project's topics with an in-memory
 * schema registry of its own, for the whole pipeline or one stage alone, and typed input and output topics.
 * Close it (try-with-resources or an {@code @AfterEach}) to drop the driver's state and the registry.
 */
public final class StageDriver implements AutoCloseable {
    /** The wall clock and record time every test starts at. */
    public static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private final String scope = "stage-" + UUID.randomUUID();
    public final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
            RetryTiers.defaults().names());
    public final TopologyTestDriver driver;

    /** The application id of every driver: internal topics are named {@code stage-test-<name>}. */
    public static final String APPLICATION_ID = "stage-test";

    private StageDriver(BiFunction<Topics, Properties, Topology> topology, Function<Topics, Properties> extra) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        // A directory of its own: drivers of other test runs on the machine must not open the same RocksDB stores.
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir());
        props.putAll(extra.apply(topics));
        driver = new TopologyTestDriver(topology.apply(topics, props), props, T0);
    }

    private static String stateDir() {
        try {
            Path dir = Files.createTempDirectory("stage-driver-");
            dir.toFile().deleteOnExit();
            return dir.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole pipeline, as {@code topology} builds it over the driver's topics. */
    public static StageDriver of(Function<Topics, Topology> topology) {
        return new StageDriver((topics, settings) -> topology.apply(topics), topics -> new Properties());
    }

    /** As above, with Streams settings of the test's own (handlers, say). */
    public static StageDriver of(Function<Topics, Topology> topology, Properties streamsConfig) {
        return new StageDriver((topics, settings) -> topology.apply(topics), topics -> streamsConfig);
    }

    /**
     * The topology {@code topology} builds with the driver's own Streams settings (so that topology and driver
     * agree on them), which are the defaults plus {@code settings}; these may name the driver's topics (a dead
     * letter queue, say).
     */
    public static StageDriver configured(BiFunction<Topics, Properties, Topology> topology,
                                         Function<Topics, Properties> settings) {
        return new StageDriver(topology, settings);
    }

    /** One stage alone: {@code stage} adds it to a builder of its own. */
    public static StageDriver stage(BiConsumer<StreamsBuilder, Topics> stage) {
        return new StageDriver((topics, settings) -> {
            StreamsBuilder builder = new StreamsBuilder();
            stage.accept(builder, topics);
            return builder.build();
        }, topics -> new Properties());
    }

    /** The default pipeline with default settings. */
    public static StageDriver pipeline() {
        return of(topics -> AgentOutcomesTopology.build(topics, PipelineSettings.defaults(), new Properties()));
    }

    /** The pipeline with a retry policy of the test's own, built with the driver's settings. */
    public static StageDriver pipeline(RetryPolicy policy) {
        return configured((topics, settings) -> AgentOutcomesTopology.build(topics, PipelineSettings.builder().retry(policy).build(), settings),
                topics -> new Properties());
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

    /** The sum of a Kafka Streams metric over its tags (threads, tasks, entities), 0 when it does not exist. */
    public double metric(String group, String name) {
        return driver.metrics().entrySet().stream()
                .filter(m -> m.getKey().group().equals(group) && m.getKey().name().equals(name))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue()).sum();
    }

    public void advance(Duration wallClock) {
        driver.advanceWallClockTime(wallClock);
    }

    /** Headers from name/value pairs, values in UTF-8. */
    public static Headers headers(String... nameValues) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.add(nameValues[i], nameValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    /** A record for a {@link #bytesInput}: key and value as UTF-8 text (either may be null), with headers. */
    public static TestRecord<byte[], byte[]> textRecord(String key, String value, Headers headers, Instant time) {
        return bytesRecord(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8), headers, time);
    }

    /** A record for a {@link #bytesInput}: the key as UTF-8 text (or null), any value bytes, with headers. */
    public static TestRecord<byte[], byte[]> bytesRecord(String key, byte[] value, Headers headers, Instant time) {
        return new TestRecord<>(key == null ? null : key.getBytes(StandardCharsets.UTF_8), value, headers, time);
    }

    /** Every entry of a key-value store, in key order. */
    public <K, V> List<KeyValue<K, V>> entries(String store) {
        KeyValueStore<K, V> kv = driver.getKeyValueStore(store);
        List<KeyValue<K, V>> entries = new ArrayList<>();
        try (KeyValueIterator<K, V> all = kv.all()) {
            all.forEachRemaining(entries::add);
        }
        return entries;
    }

    /**
     * The sum of the driver's metrics named {@code name} in {@code group} whose tag {@code tag} is {@code tagValue}:
     * a sensor added by {@code addRateTotalSensor(scope, entity, op, ...)} is group {@code stream-<scope>-metrics},
     * name {@code <op>-total}, tag {@code <scope>-id} = entity.
     */
    public double metricTotal(String group, String name, String tag, String tagValue) {
        return driver.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name)
                        && tagValue.equals(e.getKey().tags().get(tag)))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    @Override
    public void close() {
        driver.close();
        MockSchemaRegistry.dropScope(scope);
    }
}
