package io.agentoutcomes.app.config;

import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.avro.registry.StoreFile;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Builds an {@link AppConfig} from, lowest precedence first: defaults, a properties file, environment variables
 * ({@link EnvironmentVariables}: {@code AGENT_OUTCOMES_BOOTSTRAP_SERVERS} is {@code bootstrap.servers}), and
 * command-line settings, parsed with the declarations of {@link AgentOutcomesConfig}. Every key the service does not
 * own goes to Kafka as it is (security, Kafka Streams tuning, serde settings such as {@code basic.auth.user.info}).
 */
public final class ConfigLoader {
    public static final String ENV_PREFIX = EnvironmentVariables.PREFIX;
    public static final String CONFIG_PROVIDERS = AbstractConfig.CONFIG_PROVIDERS_CONFIG;

    public static final String BOOTSTRAP_SERVERS = AgentOutcomesConfig.BOOTSTRAP_SERVERS;
    public static final String SCHEMA_REGISTRY_URL = AgentOutcomesConfig.SCHEMA_REGISTRY_URL;
    public static final String APPLICATION_ID = AgentOutcomesConfig.APPLICATION_ID;
    public static final String TOPIC_PREFIX = AgentOutcomesConfig.TOPIC_PREFIX;
    public static final String TOPIC_PARTITIONS = AgentOutcomesConfig.TOPIC_PARTITIONS;
    public static final String TOPIC_REPLICATION_FACTOR = AgentOutcomesConfig.TOPIC_REPLICATION_FACTOR;
    public static final String DATA_DIR = AgentOutcomesConfig.DATA_DIR;
    public static final String HTTP_HOST = AgentOutcomesConfig.HTTP_HOST;
    public static final String HTTP_PORT = AgentOutcomesConfig.HTTP_PORT;
    public static final String HTTP_ADVERTISED_HOST = AgentOutcomesConfig.HTTP_ADVERTISED_HOST;
    public static final String EMBEDDED_KAFKA_PORT = AgentOutcomesConfig.EMBEDDED_KAFKA_PORT;
    public static final String EMBEDDED_REGISTRY_PORT = AgentOutcomesConfig.EMBEDDED_REGISTRY_PORT;
    public static final String EMBEDDED_REGISTRY_MAX_REQUEST_BYTES = AgentOutcomesConfig.EMBEDDED_REGISTRY_MAX_REQUEST_BYTES;

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
        settings.putAll(EnvironmentVariables.settings(environment));
        overrides.forEach((key, value) -> {
            if (value != null) {
                settings.put(key, value);
            }
        });
        return fromSettings(withProvidedValues(settings));
    }

    /**
     * The settings with every {@code ${provider:path:key}} resolved by the config providers that {@code config.providers}
     * names ({@code config.providers=file} with {@code config.providers.file.class=
     * org.apache.kafka.common.config.provider.FileConfigProvider}), by Kafka's own {@link AbstractConfig}, as a Kafka
     * client resolves its own: so a secret can live in a mounted file, for the service's settings and the registry's too.
     */
    static Map<String, String> withProvidedValues(Map<String, String> settings) {
        if (!settings.containsKey(CONFIG_PROVIDERS)) {
            return settings;
        }
        try {
            Map<String, String> resolved = new HashMap<>();
            new AbstractConfig(new ConfigDef(), settings, false).originals()
                    .forEach((key, value) -> resolved.put(key, value == null ? null : value.toString()));
            return resolved;
        } catch (ConfigException e) {
            throw new ConfigError("config.providers: " + e.getMessage());
        }
    }

    private static AppConfig fromSettings(Map<String, String> settings) {
        ConfluentSerdeSettings.refuseUnhonoured(settings);
        Map<String, String> own = new HashMap<>();
        Map<String, String> kafka = new HashMap<>();
        settings.forEach((key, value) -> {
            if (AgentOutcomesConfig.owns(key)) {
                own.put(key, value);
            } else if (ownPrefix(key).isPresent() && !AgentOutcomesConfig.isKafkaSetting(key)
                    && !AvroSerdeConfig.HONOURED.contains(key)) {
                throw new ConfigError("Unknown setting " + key + " (see " + AgentOutcomesConfig.OWN_PREFIXES.get(ownPrefix(key).get()) + ")");
            } else {
                kafka.put(key, value);
                if (AgentOutcomesConfig.PASSED_THROUGH.contains(key)) {
                    own.put(key, value);
                }
            }
        });
        Map<String, String> families = new HashMap<>(own);
        families.keySet().removeIf(key -> AgentOutcomesConfig.family(key).isEmpty());
        AgentOutcomesConfig config = parse(own, families);
        String httpHost = config.getString(HTTP_HOST);
        String advertisedHost = Optional.ofNullable(config.getString(HTTP_ADVERTISED_HOST)).orElse(
                httpHost.equals("0.0.0.0") || httpHost.equals("::") ? localHostName() : httpHost);
        return new AppConfig(Optional.ofNullable(config.getString(BOOTSTRAP_SERVERS)),
                Optional.ofNullable(config.getString(SCHEMA_REGISTRY_URL)), config.getString(APPLICATION_ID),
                config.getString(TOPIC_PREFIX), config.getString(AgentOutcomesConfig.INPUT_OTLP_TOPIC),
                config.getInt(TOPIC_PARTITIONS),
                config.getInt(TOPIC_REPLICATION_FACTOR).shortValue(),
                config.getBoolean(AgentOutcomesConfig.TOPIC_CREATE), Path.of(config.getString(DATA_DIR)), httpHost,
                config.getInt(HTTP_PORT), advertisedHost,
                Duration.ofMillis(config.getLong(AgentOutcomesConfig.HTTP_DASHBOARD_PROVIDER_SAMPLE_MS)), config.getInt(EMBEDDED_KAFKA_PORT),
                config.getInt(EMBEDDED_REGISTRY_PORT), config.getInt(EMBEDDED_REGISTRY_MAX_REQUEST_BYTES),
                LogFormat.valueOf(config.getString(AgentOutcomesConfig.LOG_FORMAT).trim().toUpperCase(Locale.ROOT)),
                httpSecurity(config, httpHost), config.pipeline(),
                config.getLong(AgentOutcomesConfig.ROCKSDB_MEMORY_BYTES),
                config.getInt(AgentOutcomesConfig.PUNCTUATION_MAX_CONSECUTIVE_FAILURES), MetricsConfig.parse(config),
                kafka);
    }

    /** The {@code http.auth.*} and {@code http.tls.*} settings; whether they suffice is checked when the servers start. */
    private static HttpSecurity httpSecurity(AgentOutcomesConfig config, String httpHost) {
        return new HttpSecurity(httpHost, !isLoopback(httpHost),
                Optional.ofNullable(config.getBoolean(AgentOutcomesConfig.HTTP_AUTH_ENABLED)),
                secret(config, AgentOutcomesConfig.HTTP_AUTH_BEARER_TOKEN),
                secret(config, AgentOutcomesConfig.HTTP_AUTH_BASIC_USER_INFO),
                config.getBoolean(AgentOutcomesConfig.HTTP_AUTH_METRICS),
                Optional.ofNullable(config.getBoolean(AgentOutcomesConfig.HTTP_TLS_ENABLED)),
                store(config, AgentOutcomesConfig.HTTP_TLS_KEYSTORE_LOCATION, AgentOutcomesConfig.HTTP_TLS_KEYSTORE_PASSWORD,
                        AgentOutcomesConfig.HTTP_TLS_KEYSTORE_TYPE),
                secret(config, AgentOutcomesConfig.HTTP_TLS_KEY_PASSWORD),
                store(config, AgentOutcomesConfig.HTTP_TLS_TRUSTSTORE_LOCATION, AgentOutcomesConfig.HTTP_TLS_TRUSTSTORE_PASSWORD,
                        AgentOutcomesConfig.HTTP_TLS_TRUSTSTORE_TYPE),
                config.getString(AgentOutcomesConfig.EMBEDDED_REGISTRY_TLS_CLIENT_AUTH).trim().equalsIgnoreCase("required"));
    }

    private static Optional<String> secret(AgentOutcomesConfig config, String name) {
        return Optional.ofNullable(config.getPassword(name)).map(Password::value).filter(value -> !value.isEmpty());
    }

    private static Optional<StoreFile> store(AgentOutcomesConfig config, String location, String password,
                                             String type) {
        return Optional.ofNullable(config.getString(location)).map(file -> new StoreFile(Path.of(file),
                secret(config, password), config.getString(type).trim().toUpperCase(Locale.ROOT)));
    }

    /** Whether a host is a loopback address (127.0.0.1, ::1, localhost); one that does not resolve is not. */
    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * Parses the service's own settings with their declarations. A blank value is not set (its default applies);
     * a value of the wrong type is refused first, in words ({@code http.port must be a whole number, was 'eighty'}).
     */
    private static AgentOutcomesConfig parse(Map<String, String> own, Map<String, String> families) {
        Map<String, Object> values = new HashMap<>();
        own.forEach((key, raw) -> {
            ConfigDef.ConfigKey declared = AgentOutcomesConfig.CONFIG.configKeys().get(key);
            if (declared == null || raw == null || raw.isBlank() && declared.type != ConfigDef.Type.PASSWORD
                    && !key.equals(TOPIC_PREFIX)) {
                return;
            }
            String value = declared.type == ConfigDef.Type.PASSWORD ? raw : raw.trim();
            try {
                values.put(key, ConfigDef.parseType(key, value, declared.type));
            } catch (ConfigException e) {
                throw new ConfigError(key + " must be " + expected(declared.type) + ", was '" + raw + "'");
            }
        });
        try {
            return new AgentOutcomesConfig(values, families);
        } catch (ConfigError e) {
            throw e;
        } catch (ConfigException e) {
            throw new ConfigError(e.getMessage());
        }
    }

    private static String expected(ConfigDef.Type type) {
        return switch (type) {
            case INT, LONG, SHORT -> "a whole number";
            case DOUBLE -> "a number";
            case BOOLEAN -> "true or false";
            default -> "a " + type.name().toLowerCase(Locale.ROOT);
        };
    }

    private static Optional<String> ownPrefix(String key) {
        return AgentOutcomesConfig.OWN_PREFIXES.keySet().stream().filter(key::startsWith).findFirst();
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
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
}
