package io.agentoutcomes.app.config;

import io.agentoutcomes.app.registry.SchemaRegistryServer;
import io.agentoutcomes.app.streams.BoundedRocksDbMemory;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.PipelineSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Every setting of the service, declared once: name, type, default, validator and meaning, as Kafka's own
 * {@code StreamsConfig} declares its settings. {@link ConfigLoader} parses with it, docs/operations.md's settings
 * table is generated from it ({@link SettingsTable}), and {@link #isSecret} reads its {@link Type#PASSWORD}s and those
 * of Kafka's clients. It is the list of the stages' settings groups ({@link #STAGES}: each declares its stage's settings
 * and parses them into the stage's value) and the service's own settings (Kafka, topics, HTTP, the embedded broker,
 * state, metrics). Adding a stage's setting is one {@code .define(...)} line in its group, then reading it in the
 * group's {@code parse}; adding one of the service's is one line below.
 *
 * <p>Settings named per error code, category or agent ({@code policy.code.<code>}) are declared as {@link #FAMILIES}.
 * Every other setting goes to the Kafka clients and Kafka Streams as it is; a declared setting marked passed-through
 * ({@link #PASSED_THROUGH}) goes there too.
 */
public final class AgentOutcomesConfig extends ParsedConfig {
    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String APPLICATION_ID = "application.id";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String TOPIC_CREATE = "topic.create";
    public static final String INPUT_OTLP_TOPIC = "input.otlp.topic";
    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
    public static final String DATA_DIR = "data.dir";
    public static final String HTTP_HOST = "http.host";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_ADVERTISED_HOST = "http.advertised.host";
    public static final String HTTP_DASHBOARD_PROVIDER_SAMPLE_MS = "http.dashboard.provider.sample.ms";
    public static final long DASHBOARD_PROVIDER_SAMPLE_MS_DEFAULT = 10_000;
    public static final String LOG_FORMAT = "log.format";
    public static final String HTTP_AUTH_ENABLED = "http.auth.enabled";
    public static final String HTTP_AUTH_BEARER_TOKEN = "http.auth.bearer.token";
    public static final String HTTP_AUTH_BASIC_USER_INFO = "http.auth.basic.user.info";
    public static final String HTTP_AUTH_METRICS = "http.auth.metrics";
    public static final String HTTP_TLS_ENABLED = "http.tls.enabled";
    public static final String HTTP_TLS_KEYSTORE_LOCATION = "http.tls.keystore.location";
    public static final String HTTP_TLS_KEYSTORE_PASSWORD = "http.tls.keystore.password";
    public static final String HTTP_TLS_KEYSTORE_TYPE = "http.tls.keystore.type";
    public static final String HTTP_TLS_KEY_PASSWORD = "http.tls.key.password";
    public static final String HTTP_TLS_TRUSTSTORE_LOCATION = "http.tls.truststore.location";
    public static final String HTTP_TLS_TRUSTSTORE_PASSWORD = "http.tls.truststore.password";
    public static final String HTTP_TLS_TRUSTSTORE_TYPE = "http.tls.truststore.type";
    public static final String EMBEDDED_KAFKA_PORT = "embedded.kafka.port";
    public static final String EMBEDDED_REGISTRY_PORT = "embedded.registry.port";
    public static final String EMBEDDED_REGISTRY_MAX_REQUEST_BYTES = "embedded.registry.max.request.bytes";
    public static final String EMBEDDED_REGISTRY_TLS_CLIENT_AUTH = "embedded.registry.tls.client.auth";
    public static final String PUNCTUATION_MAX_CONSECUTIVE_FAILURES = "punctuation.max.consecutive.failures";
    /** Declared with the RocksDB config setter, which reads it from the streams configuration. */
    public static final String ROCKSDB_MEMORY_BYTES = BoundedRocksDbMemory.MEMORY_BYTES_CONFIG;


    /**
     * The settings group of each stage, in the pipeline's order: each declares and parses its own settings into the
     * stage's value of {@link PipelineSettings}. A new stage's settings are one line here.
     */
    static final List<StageConfig<?>> STAGES = List.of(new RetryPolicyConfig(), new SchedulerConfig(), new TaskRetentionConfig(),
            new AnalyticsConfig(), new PricingConfig(), new ProviderGateConfig(), new BudgetConfig(), new InputLimitsConfig(),
            new ReplayConfig());

    /**
     * The declarations: the service's own settings, each stage's ({@link #STAGES}), then the service's state, metrics and
     * input topic; the settings table of docs/operations.md is generated from them.
     */
    public static final ConfigDef CONFIG = new Declarations()
            .group(Headings.KAFKA)
            .define(BOOTSTRAP_SERVERS, Type.STRING, null, null, "Kafka to use (host:port,...). Not set: an embedded single-node broker runs in-process.")
            .define(SCHEMA_REGISTRY_URL, Type.STRING, null, null, "A Confluent-compatible schema registry (credentials in the URL are never shown). Not set: the embedded registry runs.")
            .define(BASIC_AUTH_USER_INFO, Type.PASSWORD, null, null, "user:password for the schema registry's basic authentication.")
            .define(APPLICATION_ID, Type.STRING, "agent-outcomes", null, "Kafka Streams application id: instances with the same id share the work.")
            .group(Headings.SERVICE)
            .define(TOPIC_PREFIX, Type.STRING, "", null, "Prepended to every topic name.")
            .define(TOPIC_PARTITIONS, Type.INT, 4, Check.atLeast(1), "Partitions of the topics the service creates.")
            .define(TOPIC_REPLICATION_FACTOR, Type.INT, -1, new Check("-1 or 1..32767",
                    v -> (Integer) v == -1 || (Integer) v >= 1 && (Integer) v <= Short.MAX_VALUE,
                    (name, v) -> name + " must be -1 (broker default) or at least 1, was " + v),
                    "Replication factor of the topics the service creates; -1: the broker's default.")
            .define(TOPIC_CREATE, Type.BOOLEAN, true, null, "Create the topics the service needs (its own, the Kafka Streams changelogs and repartition topics, _schemas) where they do not exist. false: only check they exist, and refuse to start naming every missing one (clusters whose topics are managed elsewhere: Strimzi's Topic Operator, ACLs without CREATE).")
            .define(DATA_DIR, Type.STRING, "data", null, "The embedded broker's log and the Kafka Streams state.")
            .define(HTTP_HOST, Type.STRING, "127.0.0.1", null, "Address of the HTTP server and the embedded registry.")
            .define(HTTP_PORT, Type.INT, 8080, Check.port(), "Port of the HTTP server (0: any free port).")
            .define(HTTP_ADVERTISED_HOST, Type.STRING, null, null, "How other instances reach this one's HTTP server: the Kafka Streams application.server and the host of the embedded registry's URL. Not set: http.host, or the host name when http.host is 0.0.0.0 or ::.")
            .define(HTTP_DASHBOARD_PROVIDER_SAMPLE_MS, Type.LONG, DASHBOARD_PROVIDER_SAMPLE_MS_DEFAULT, Check.between(1_000, 600_000), "How often the dashboard's provider sparklines sample the provider gate's held and paced retries (every instance's, as /providers), milliseconds; each scope keeps its last 60 samples (10 minutes at the default).")
            .define(LOG_FORMAT, Type.STRING, "text", Check.oneOf(List.of("text", "json")), "Log lines as text, or as one JSON object per line.")
            .group(Headings.HTTP_SECURITY)
            .define(HTTP_AUTH_ENABLED, Type.BOOLEAN, null, null, "Whether the data and write endpoints (jobs, analytics, pages, the embedded registry's writes) require credentials; health never does. Not set: yes when credentials are set, and whenever http.host is beyond loopback (the service then refuses to start without credentials). false: anyone who reaches them gets an answer.")
            .define(HTTP_AUTH_BEARER_TOKEN, Type.PASSWORD, null, null, "A token accepted as 'Authorization: Bearer <token>'. The service also presents it to its other instances and its embedded registry when no basic credentials are set.")
            .define(HTTP_AUTH_BASIC_USER_INFO, Type.PASSWORD, null, Check.userInfo(), "user:password accepted with HTTP basic authentication (a browser asks for them). The service also presents them to its other instances and its embedded registry.")
            .define(HTTP_AUTH_METRICS, Type.BOOLEAN, false, null, "Whether GET /metrics requires the credentials too, when authentication is on.")
            .define(HTTP_TLS_ENABLED, Type.BOOLEAN, null, null, "Whether the HTTP server and the embedded registry speak HTTPS. Not set: yes when a keystore is set, and whenever http.host is beyond loopback (the service then refuses to start without one). false: plain HTTP, e.g. behind a proxy that terminates TLS.")
            .define(HTTP_TLS_KEYSTORE_LOCATION, Type.STRING, null, null, "The keystore file with the server's private key and certificate; the certificate names http.advertised.host (and localhost, where the embedded registry listens on every interface).")
            .define(HTTP_TLS_KEYSTORE_PASSWORD, Type.PASSWORD, null, null, "The keystore's password.")
            .define(HTTP_TLS_KEYSTORE_TYPE, Type.STRING, "PKCS12", Check.oneOf(List.of("pkcs12", "jks")), "The keystore's format.")
            .define(HTTP_TLS_KEY_PASSWORD, Type.PASSWORD, null, null, "The private key's password. Not set: the keystore's.")
            .define(HTTP_TLS_TRUSTSTORE_LOCATION, Type.STRING, null, null, "The certificates the service trusts when it calls its other instances (queries, the embedded registry's writer) and its own embedded registry over HTTPS. Not set: the JVM's default trust store.")
            .define(HTTP_TLS_TRUSTSTORE_PASSWORD, Type.PASSWORD, null, null, "The trust store's password.")
            .define(HTTP_TLS_TRUSTSTORE_TYPE, Type.STRING, "PKCS12", Check.oneOf(List.of("pkcs12", "jks")), "The trust store's format.")
            .group(Headings.EMBEDDED)
            .define(EMBEDDED_KAFKA_PORT, Type.INT, 9092, Check.port(), "Port of the embedded broker's client listener.")
            .define(EMBEDDED_REGISTRY_PORT, Type.INT, 8081, Check.port(), "Port of the embedded schema registry.")
            .define(EMBEDDED_REGISTRY_MAX_REQUEST_BYTES, Type.INT, SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES, Check.atLeast(1024), "Request bodies the embedded registry reads; longer ones are answered 413.")
            .define(EMBEDDED_REGISTRY_TLS_CLIENT_AUTH, Type.STRING, "none", Check.oneOf(List.of("none", "required")), "required: the embedded registry answers only clients presenting a certificate that http.tls.truststore trusts (mutual TLS; needs http.tls.keystore and http.tls.truststore), and the service presents its own http.tls.keystore certificate to it and to its other instances. none: no client certificate asked.")
            .declare(AgentOutcomesConfig::declareStages)
            .group(Headings.STATE)
            .define(ROCKSDB_MEMORY_BYTES, Type.LONG, BoundedRocksDbMemory.DEFAULT_MEMORY_BYTES, Check.atLeast(4L * 1024 * 1024), "All RocksDB stores of the process share one block cache of this size (index and filter blocks included), a quarter of it for write buffers.")
            .define(PUNCTUATION_MAX_CONSECUTIVE_FAILURES, Type.INT, 100, Check.between(1, 1_000_000), "Failures in a row of one stage's scheduled work (a punctuator: the retry scheduler's check, the provider gate's, an analytics flush, a sweep) in one task, with no success between, that end the process with exit status 70 for its supervisor to restart it (docs/operations.md#punctuationsfailing). Each failure is counted in agent_outcomes_punctuation_failures_total.")
            .declare(MetricsConfig::declare)
            .group(Headings.LIMITS)
            .define(INPUT_OTLP_TOPIC, Type.STRING, TopicNames.OTLP_SPANS, new Check("a topic name: 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'", v -> ((String) v).matches("[a-zA-Z0-9._-]{1,249}"), (n, v) -> n + " must be a topic name (1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'), was '" + v + "'"), "The topic OTLP trace export requests are read from, in full (topic.prefix is not added): where the OpenTelemetry Collector's Kafka exporter writes spans, otlp_proto or otlp_json (docs/ingestion.md#otlp).")
            .configDef();

    /** Declared settings that are passed to the Kafka clients and serdes as well. */
    public static final Set<String> PASSED_THROUGH = Set.of(BASIC_AUTH_USER_INFO);

    /** Settings named per error code, category, agent, fallback chain or budget: the stages' families. */
    public static final List<SettingFamily> FAMILIES = STAGES.stream().flatMap(stage -> stage.families().stream()).toList();

    /**
     * Name prefixes that belong to the service: a setting with one of them that is neither declared, nor of a family,
     * nor a Kafka client setting ({@code retry.backoff.ms}) is refused. Each says where its settings are described.
     */
    static final Map<String, String> OWN_PREFIXES = Map.ofEntries(
            Map.entry("policy.", "docs/classification.md"), Map.entry("backoff.", "docs/classification.md"),
            Map.entry("retry.", "docs/classification.md"), Map.entry("task.", "docs/classification.md"),
            Map.entry("analytics.", "docs/analytics.md"), Map.entry("pricing.", "docs/analytics.md"),
            Map.entry("budget.", "docs/analytics.md"), Map.entry("fallback.", "docs/classification.md"),
            Map.entry("replay.", "docs/replay.md"),
            Map.entry("input.", "docs/operations.md"), Map.entry("http.", "docs/operations.md"),
            Map.entry("embedded.", "docs/operations.md"), Map.entry("log.", "docs/operations.md"),
            Map.entry("rocksdb.", "docs/operations.md"), Map.entry("punctuation.", "docs/operations.md"),
            Map.entry("provider.", "docs/classification.md"), Map.entry("metrics.", "docs/operations.md"));

    /** Prefixes Kafka Streams reads client settings under ({@code producer.ssl.key.password}). */
    private static final List<String> CLIENT_PREFIXES = List.of(StreamsConfig.MAIN_CONSUMER_PREFIX,
            StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.GLOBAL_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX,
            StreamsConfig.PRODUCER_PREFIX, StreamsConfig.ADMIN_CLIENT_PREFIX);

    /** Kafka's own declarations of the settings the service passes through. */
    private static final List<ConfigDef> KAFKA_DEFS = List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(),
            AdminClientConfig.configDef(), StreamsConfig.configDef());

    private static final Set<String> KAFKA_NAMES = KAFKA_DEFS.stream().flatMap(def -> def.names().stream())
            .collect(Collectors.toUnmodifiableSet());

    /**
     * Parses settings already checked for their types (see {@link ConfigLoader}); validators throw ConfigError.
     *
     * @param settings the declared settings given, by their types
     * @param families the settings of the {@link #FAMILIES} given, as they are
     */
    AgentOutcomesConfig(Map<String, ?> settings, Map<String, String> families) {
        super(CONFIG, settings, families);
    }

    private static Declarations declareStages(Declarations declarations) {
        STAGES.forEach(stage -> stage.declare(declarations));
        return declarations;
    }

    @Override
    public int partitions() {
        return getInt(TOPIC_PARTITIONS);
    }

    /** Every stage's settings, each parsed by its group onto one builder. */
    public PipelineSettings pipeline() {
        PipelineSettings.Builder pipeline = PipelineSettings.builder();
        STAGES.forEach(stage -> stage.parseInto(this, pipeline));
        return pipeline.build();
    }

    /** Whether a name is one of the service's own settings (declared or of a family), not passed to Kafka. */
    public static boolean owns(String name) {
        return CONFIG.names().contains(name) && !PASSED_THROUGH.contains(name) || family(name).isPresent();
    }

    public static Optional<SettingFamily> family(String name) {
        return FAMILIES.stream().filter(f -> f.matches(name)).findFirst();
    }

    /** Whether Kafka's clients or Kafka Streams declare a setting (also under a Streams client prefix). */
    public static boolean isKafkaSetting(String name) {
        return KAFKA_NAMES.contains(unprefixed(name));
    }

    /**
     * Whether a setting's value must never be shown: declared {@link Type#PASSWORD} here or by Kafka's clients or
     * Kafka Streams ({@code sasl.jaas.config}, {@code ssl.key.password}, ...).
     */
    public static boolean isSecret(String name) {
        String plain = unprefixed(name);
        return Stream.concat(Stream.of(CONFIG), KAFKA_DEFS.stream())
                .map(def -> def.configKeys().get(plain))
                .anyMatch(key -> key != null && key.type == Type.PASSWORD);
    }

    /** Whether a setting is declared anywhere: here, as a family, or by Kafka. */
    public static boolean isDeclared(String name) {
        return CONFIG.names().contains(name) || family(name).isPresent() || isKafkaSetting(name);
    }

    private static String unprefixed(String name) {
        return CLIENT_PREFIXES.stream().filter(name::startsWith).findFirst()
                .map(prefix -> name.substring(prefix.length())).orElse(name);
    }
}
