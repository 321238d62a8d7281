package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.topic.Topics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.processor.internals.ClientUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The Kafka Streams settings the service sets deliberately where Kafka 4 asks for a choice (issue 34 item 5). */
class StreamsPropertiesTest {
    private static final String GLOBAL_HANDLER_WARNING = "Processing exception handler is not enabled for the GlobalThread";

    @TempDir
    Path dataDir;

    private final String scope = "streams-properties-" + UUID.randomUUID();
    private final Logger streamsConfigLog = (Logger) LoggerFactory.getLogger(StreamsConfig.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void captureStreamsConfigLog() {
        logged.start();
        streamsConfigLog.addAppender(logged);
    }

    @AfterEach
    void release() {
        streamsConfigLog.detachAppender(logged);
        MockSchemaRegistry.dropScope(scope);
    }

    private AppConfig config() {
        return ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ConfigLoader.BOOTSTRAP_SERVERS, "localhost:9092",
                ConfigLoader.DATA_DIR, dataDir.toString()));
    }

    private Properties serviceProperties(AppConfig config) {
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());
        return StreamsProperties.of(config, Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092"), topics);
    }

    private List<String> warnings() {
        return logged.list.stream().filter(event -> event.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void kafkaWarnsOfTheGlobalProcessingHandlerWhenItIsLeftUnset() {
        new StreamsConfig(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "app", StreamsConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:9092"));

        assertThat(warnings()).anySatisfy(warning -> assertThat(warning).startsWith(GLOBAL_HANDLER_WARNING));
    }

    @Test
    void theServiceUsesItsProcessingHandlerForTheGlobalStoreAndKafkaDoesNotWarn() {
        StreamsConfig streams = new StreamsConfig(serviceProperties(config()));

        assertThat(streams.getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isTrue();
        assertThat(warnings()).noneSatisfy(warning -> assertThat(warning).startsWith(GLOBAL_HANDLER_WARNING));
    }

    /**
     * Each stream thread's partition assignor reads its settings back from the main consumer's configs, which carry
     * only consumer settings and a few of Streams' own (Kafka 4.3's {@code AssignorConfiguration}); without the
     * main-consumer copy of the global handler setting, Kafka warned once per stream thread at every start.
     */
    @Test
    void theStreamThreadsAssignorsSeeTheGlobalHandlerSettingAndKafkaDoesNotWarn() {
        StreamsConfig streams = new StreamsConfig(serviceProperties(config()));
        Map<String, Object> assignorConfigs = streams.getMainConsumerConfigs("agent-outcomes", "thread-1", 1);

        StreamsConfig assignors = new ClientUtils.QuietStreamsConfig(assignorConfigs);

        assertThat(assignors.getBoolean(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG)).isTrue();
        assertThat(warnings()).noneSatisfy(warning -> assertThat(warning).startsWith(GLOBAL_HANDLER_WARNING));
    }

    @Test
    void theServicesTopologyIsBuiltWithEveryInternalNameExplicitAndUnchanged() {
        AppConfig config = config();
        Properties props = serviceProperties(config);
        Properties unchecked = new Properties();
        unchecked.putAll(props);
        unchecked.remove(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG);
        Topics topics = new Topics(config.topicPrefix(), Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope),
                config.pipeline().retry().tiers().names());

        TopologyDescription checked = AgentOutcomesTopology.build(topics, config.pipeline(), props).describe();

        assertThat(new StreamsConfig(props).getBoolean(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG))
                .isTrue();
        assertThat(checked).isEqualTo(AgentOutcomesTopology.build(topics, config.pipeline(), unchecked).describe());
    }
}
