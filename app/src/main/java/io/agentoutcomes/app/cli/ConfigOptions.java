package io.agentoutcomes.app.cli;

import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The configuration flags every command that talks to Kafka takes. */
public final class ConfigOptions {

    @Option(names = "--config", paramLabel = "FILE", description = "A properties file of settings.")
    Path configFile;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT[,...]",
            description = "Kafka to use. Without it, an embedded single-node broker runs in-process.")
    String bootstrapServers;

    @Option(names = "--schema-registry-url", paramLabel = "URL",
            description = "Confluent-compatible schema registry to use. Without it, an embedded registry runs.")
    String schemaRegistryUrl;

    @Option(names = "--application-id", paramLabel = "ID", description = "Kafka Streams application id (default: agent-outcomes).")
    String applicationId;

    @Option(names = "--topic-prefix", paramLabel = "PREFIX", description = "Prefix of every topic name (default: none).")
    String topicPrefix;

    @Option(names = "--partitions", paramLabel = "N", description = "Partitions of the topics created at start (default: 4).")
    Integer partitions;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Embedded broker log and streams state (default: ./data).")
    Path dataDir;

    @Option(names = "--http-host", paramLabel = "HOST", description = "Address of the HTTP server and the embedded registry (default: 127.0.0.1).")
    String httpHost;

    @Option(names = "--http-port", paramLabel = "PORT", description = "Port of the HTTP server (default: 8080).")
    Integer httpPort;

    @Option(names = "--log-format", paramLabel = "text|json",
            description = "Log lines as text (default) or as one JSON object per line.")
    String logFormat;

    @Option(names = {"-p", "--property"}, paramLabel = "KEY=VALUE",
            description = "Any other setting, e.g. security.protocol=SASL_SSL or num.stream.threads=2. Repeatable.")
    Map<String, String> properties = new LinkedHashMap<>();

    /** The {@code -p} settings, to which a command may add defaults of its own before {@link #load}. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The setting each flag sets, for the settings table; every other setting is {@code -p key=value}. */
    public static final Map<String, String> FLAGS = Map.of(
            ConfigLoader.BOOTSTRAP_SERVERS, "--bootstrap-servers",
            ConfigLoader.SCHEMA_REGISTRY_URL, "--schema-registry-url",
            ConfigLoader.APPLICATION_ID, "--application-id",
            ConfigLoader.TOPIC_PREFIX, "--topic-prefix",
            ConfigLoader.TOPIC_PARTITIONS, "--partitions",
            ConfigLoader.DATA_DIR, "--data-dir",
            ConfigLoader.HTTP_HOST, "--http-host",
            ConfigLoader.HTTP_PORT, "--http-port",
            AgentOutcomesConfig.LOG_FORMAT, "--log-format");

    /** Parses defaults, the file, the environment and these flags into the service's configuration. */
    public AppConfig load(Map<String, String> environment) {
        return ConfigLoader.load(Optional.ofNullable(configFile), environment, flagSettings());
    }

    /** The settings these flags give: {@code -p} ones and those of the named flags ({@link #FLAGS}). */
    public Map<String, String> flagSettings() {
        Map<String, String> flags = new HashMap<>(properties);
        put(flags, ConfigLoader.BOOTSTRAP_SERVERS, bootstrapServers);
        put(flags, ConfigLoader.SCHEMA_REGISTRY_URL, schemaRegistryUrl);
        put(flags, ConfigLoader.APPLICATION_ID, applicationId);
        put(flags, ConfigLoader.TOPIC_PREFIX, topicPrefix);
        put(flags, ConfigLoader.TOPIC_PARTITIONS, partitions);
        put(flags, ConfigLoader.DATA_DIR, dataDir);
        put(flags, ConfigLoader.HTTP_HOST, httpHost);
        put(flags, ConfigLoader.HTTP_PORT, httpPort);
        put(flags, AgentOutcomesConfig.LOG_FORMAT, logFormat);
        return flags;
    }

    private static void put(Map<String, String> flags, String key, Object value) {
        if (value != null) {
            flags.put(key, value.toString());
        }
    }
}
