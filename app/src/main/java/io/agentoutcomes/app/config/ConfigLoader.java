package io.agentoutcomes.app.config;

import io.agentoutcomes.app.registry.SchemaRegistryServer;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Builds an {@link AppConfig} from, lowest precedence first: defaults, a properties file, environment variables
 * ({@code AGENT_OUTCOMES_BOOTSTRAP_SERVERS} is {@code bootstrap.servers}: lower-cased, {@code _} read as {@code .}),
 * and command-line settings. The service's own keys are listed below; every other key goes to Kafka as it is
 * (security, Kafka Streams tuning, serde settings such as {@code basic.auth.user.info}).
 */
public final class ConfigLoader {
    public static final String ENV_PREFIX = "AGENT_OUTCOMES_";

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String APPLICATION_ID = "application.id";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
    public static final String DATA_DIR = "data.dir";
    public static final String HTTP_HOST = "http.host";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_ADVERTISED_HOST = "http.advertised.host";
    public static final String EMBEDDED_KAFKA_PORT = "embedded.kafka.port";
    public static final String EMBEDDED_REGISTRY_PORT = "embedded.registry.port";
    public static final String EMBEDDED_REGISTRY_MAX_REQUEST_BYTES = "embedded.registry.max.request.bytes";

    private ConfigLoader() {
    }

    /**
     * @param file        a properties file, if given
     * @param environment the process environment (only {@code AGENT_OUTCOMES_*} variables are read)
     * @param overrides   settings from the command line
     */
    public static AppConfig load(Optional<Path> file, Map<String, String> environment, Map<String, String> overrides) {
        Map<String, String> settings = new HashMap<>();
        file.ifPresent(path -> settings.putAll(readProperties(path)));
        environment.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
                settings.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        overrides.forEach((key, value) -> {
            if (value != null) {
                settings.put(key, value);
            }
        });
        return fromSettings(settings);
    }

    private static AppConfig fromSettings(Map<String, String> settings) {
        Map<String, String> kafka = new HashMap<>(settings);
        Optional<String> bootstrap = nonBlank(kafka.remove(BOOTSTRAP_SERVERS));
        Optional<String> registry = nonBlank(kafka.remove(SCHEMA_REGISTRY_URL));
        String applicationId = nonBlank(kafka.remove(APPLICATION_ID)).orElse("agent-outcomes");
        String prefix = Optional.ofNullable(kafka.remove(TOPIC_PREFIX)).orElse("");
        int partitions = integer(kafka.remove(TOPIC_PARTITIONS), TOPIC_PARTITIONS, 4);
        int replication = integer(kafka.remove(TOPIC_REPLICATION_FACTOR), TOPIC_REPLICATION_FACTOR, -1);
        Path dataDir = Path.of(nonBlank(kafka.remove(DATA_DIR)).orElse("data"));
        String httpHost = nonBlank(kafka.remove(HTTP_HOST)).orElse("127.0.0.1");
        int httpPort = port(kafka.remove(HTTP_PORT), HTTP_PORT, 8080);
        String advertisedHost = nonBlank(kafka.remove(HTTP_ADVERTISED_HOST)).orElse(
                httpHost.equals("0.0.0.0") || httpHost.equals("::") ? localHostName() : httpHost);
        int kafkaPort = port(kafka.remove(EMBEDDED_KAFKA_PORT), EMBEDDED_KAFKA_PORT, 9092);
        int registryPort = port(kafka.remove(EMBEDDED_REGISTRY_PORT), EMBEDDED_REGISTRY_PORT, 8081);
        int registryMaxRequest = integer(kafka.remove(EMBEDDED_REGISTRY_MAX_REQUEST_BYTES), EMBEDDED_REGISTRY_MAX_REQUEST_BYTES,
                SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES);
        if (registryMaxRequest < 1024) {
            throw new ConfigError(EMBEDDED_REGISTRY_MAX_REQUEST_BYTES + " must be at least 1024, was " + registryMaxRequest);
        }
        if (replication == 0 || replication < -1 || replication > Short.MAX_VALUE) {
            throw new ConfigError(TOPIC_REPLICATION_FACTOR + " must be -1 (broker default) or at least 1, was " + replication);
        }
        Map<String, String> policySettings = new HashMap<>();
        kafka.keySet().removeIf(key -> {
            if (PolicyConfig.owns(key)) {
                policySettings.put(key, kafka.get(key));
                return true;
            }
            return false;
        });
        return new AppConfig(bootstrap, registry, applicationId, prefix, partitions, (short) replication, dataDir,
                httpHost, httpPort, advertisedHost, kafkaPort, registryPort, registryMaxRequest,
                PolicyConfig.parse(policySettings), PolicyConfig.analytics(policySettings), PolicyConfig.replay(policySettings),
                PolicyConfig.input(policySettings), kafka);
    }

    private static String localHostName() {
        try {
            return java.net.InetAddress.getLocalHost().getCanonicalHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    private static Map<String, String> readProperties(Path path) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigError("Cannot read the configuration file " + path + ": " + e.getMessage());
        }
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name).trim()));
        return settings;
    }

    private static Optional<String> nonBlank(String value) {
        return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static int integer(String value, String key, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new ConfigError(key + " must be a whole number, was '" + value + "'");
        }
    }

    private static int port(String value, String key, int fallback) {
        int port = integer(value, key, fallback);
        if (port < 0 || port > 65535) {
            throw new ConfigError(key + " must be a port between 0 and 65535, was " + port);
        }
        return port;
    }

    /** A configuration that cannot be used; its message says which setting and why. */
    public static final class ConfigError extends RuntimeException {
        public ConfigError(String message) {
            super(message);
        }
    }
}
