package io.agentoutcomes.app.config;

import io.agentoutcomes.app.registry.SchemaRegistryServer;
import io.agentoutcomes.app.streams.BoundedRocksDbMemory;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.classify.Backoff;
import io.agentoutcomes.topology.classify.ConfidencePolicy;
import io.agentoutcomes.topology.classify.Jitter;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.classify.TaskRetention;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Every setting of the service, declared once: name, type, default, validator and meaning, as Kafka's own
 * {@code StreamsConfig} declares its settings. {@link ConfigLoader} parses with it, docs/operations.md's settings
 * table is generated from it ({@link SettingsTable}), and {@link #isSecret} reads its {@link Type#PASSWORD}s and those
 * of Kafka's clients. Adding a setting is one {@code .define(...)} line below, then reading it where it is used.
 *
 * <p>Settings named per error code, category or agent ({@code policy.code.<code>}) are declared as {@link #FAMILIES}.
 * Every other setting goes to the Kafka clients and Kafka Streams as it is; a declared setting marked passed-through
 * ({@link #PASSED_THROUGH}) goes there too.
 */
public final class AgentOutcomesConfig extends AbstractConfig {
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
    public static final String POLICY_PRESET = "policy.preset";
    public static final String POLICY_MAX_RETRIES = "policy.max.retries";
    public static final String POLICY_MAX_ATTEMPTS = "policy.max.attempts";
    public static final String POLICY_DAILY_LIMIT = "policy.daily-limit";
    public static final String BACKOFF_DEFAULT_BASE_MS = "backoff.default.base.ms";
    public static final String BACKOFF_CAP_MS = "backoff.cap.ms";
    public static final String BACKOFF_MULTIPLIER = "backoff.multiplier";
    public static final String BACKOFF_JITTER = "backoff.jitter";
    public static final String RETRY_TIERS = "retry.tiers";
    public static final String RETRY_MAX_DELAY_MS = "retry.max.delay.ms";
    public static final String RETRY_SCHEDULER_INTERVAL_MS = "retry.scheduler.interval.ms";
    public static final String RETRY_SCHEDULER_MAX_PER_CHECK = "retry.scheduler.max.per.check";
    public static final String ANALYTICS_FLUSH_INTERVAL_MS = "analytics.flush.interval.ms";
    public static final String ANALYTICS_GRACE_MS = "analytics.grace.ms";
    public static final String ANALYTICS_MAX_LABEL_SETS = "analytics.metrics.max.label.sets";
    public static final String ANALYTICS_ENABLED = "analytics.enabled";
    public static final String ANALYTICS_DIMENSIONS = "analytics.dimensions";
    public static final String ANALYTICS_DIMENSION_MAX_VALUES = "analytics.dimension.max.values";
    public static final String PRICING_FILE = "pricing.file";
    public static final String PRICING_MISMATCH_TOLERANCE = "pricing.mismatch.tolerance";
    public static final String TASK_STATE_RETENTION_MS = "task.state.retention.ms";
    public static final String TASK_STATE_SWEEP_INTERVAL_MS = "task.state.sweep.interval.ms";
    public static final String PUNCTUATION_MAX_CONSECUTIVE_FAILURES = "punctuation.max.consecutive.failures";
    /** Declared with the RocksDB config setter, which reads it from the streams configuration. */
    public static final String ROCKSDB_MEMORY_BYTES = BoundedRocksDbMemory.MEMORY_BYTES_CONFIG;
    public static final String REPLAY_MAX_PAYLOAD_BYTES = "replay.max.payload.bytes";
    public static final String REPLAY_MAX_REASON_CHARS = "replay.max.reason.chars";
    public static final String REPLAY_MAX_STATE_BYTES = "replay.max.state.bytes";

    public static final String PRESETS = "default, stop-on-any-error, retry-tool-errors, ignore-tool-errors, retry-all";
    private static final String HANDLING = "stop, retry, ignore";

    private static final String KAFKA = "Kafka and schema registry";
    private static final String SERVICE = "Topics, state and HTTP";
    private static final String HTTP_SECURITY = "HTTP authentication and TLS";
    private static final String EMBEDDED = "Embedded broker and registry";
    static final String POLICY = "Classification policy";
    private static final String BACKOFF = "Backoff";
    private static final String RETRY = "Retries";
    private static final String STATE = "Task state and memory";
    static final String ANALYTICS = "Analytics";
    private static final String LIMITS = "Input and replay bounds";

    private static final Backoff BACKOFF_DEFAULTS = Backoff.defaults();
    private static final AnalyticsSettings ANALYTICS_DEFAULTS = AnalyticsSettings.defaults();
    private static final ReplayLimits REPLAY_DEFAULTS = ReplayLimits.defaults();

    /** The declarations; the settings table of docs/operations.md is generated from them. */
    public static final ConfigDef CONFIG = new Declarations()
            .group(KAFKA)
            .define(BOOTSTRAP_SERVERS, Type.STRING, null, null, "Kafka to use (host:port,...). Not set: an embedded single-node broker runs in-process.")
            .define(SCHEMA_REGISTRY_URL, Type.STRING, null, null, "A Confluent-compatible schema registry (credentials in the URL are never shown). Not set: the embedded registry runs.")
            .define(BASIC_AUTH_USER_INFO, Type.PASSWORD, null, null, "user:password for the schema registry's basic authentication.")
            .define(APPLICATION_ID, Type.STRING, "agent-outcomes", null, "Kafka Streams application id: instances with the same id share the work.")
            .group(SERVICE)
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
            .group(HTTP_SECURITY)
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
            .group(EMBEDDED)
            .define(EMBEDDED_KAFKA_PORT, Type.INT, 9092, Check.port(), "Port of the embedded broker's client listener.")
            .define(EMBEDDED_REGISTRY_PORT, Type.INT, 8081, Check.port(), "Port of the embedded schema registry.")
            .define(EMBEDDED_REGISTRY_MAX_REQUEST_BYTES, Type.INT, SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES, Check.atLeast(1024), "Request bodies the embedded registry reads; longer ones are answered 413.")
            .define(EMBEDDED_REGISTRY_TLS_CLIENT_AUTH, Type.STRING, "none", Check.oneOf(List.of("none", "required")), "required: the embedded registry answers only clients presenting a certificate that http.tls.truststore trusts (mutual TLS; needs http.tls.keystore and http.tls.truststore), and the service presents its own http.tls.keystore certificate to it and to its other instances. none: no client certificate asked.")
            .group(POLICY)
            .define(POLICY_PRESET, Type.STRING, "default", Check.oneOf(List.of(PRESETS.split(", "))), "The error policy to start from (docs/classification.md).")
            .define(POLICY_MAX_RETRIES, Type.INT, null, Check.notNegative(), "The retry limit, which counts failures, not retries: a retry becomes a stop once a task's consecutive failures reach it, so 5 means at most 5 attempts, 4 of them retries (0 and 1: no retry). Not set: the preset's (5 for default).")
            .define(POLICY_MAX_ATTEMPTS, Type.INT, null, Check.atLeast(1), "The same limit named in attempts, as Temporal (maximumAttempts) and Spring Retry (maxAttempts) name it: attempts of one task at most, the first included, so 5 is policy.max.retries=5 (4 retries) and 1 is no retry. Set one of the two.")
            .define(POLICY_DAILY_LIMIT, Type.STRING, "switch", Check.oneOf(List.of("switch", "wait")), "An exhausted daily rate-limit window: switch hands the retry on at once with action SWITCH_PROVIDER; wait waits for the reset (within retry.max.delay.ms).")
            .define(ConfidencePolicy.RETRY_BELOW_CONFIG, Type.DOUBLE, null, Check.between(0.0, 1.0), "A success whose confidence is below it is retried. Not set: off.")
            .define(ConfidencePolicy.VERIFY_BELOW_CONFIG, Type.DOUBLE, null, Check.between(0.0, 1.0), "A success whose confidence is below it goes to verifications. Not set: off.")
            .group(BACKOFF)
            .define(BACKOFF_DEFAULT_BASE_MS, Type.LONG, BACKOFF_DEFAULTS.defaultBase().toMillis(), Check.notNegative(), "Base delay of a code without its own base.")
            .define(BACKOFF_CAP_MS, Type.LONG, BACKOFF_DEFAULTS.cap().toMillis(), Check.notNegative(), "The longest computed delay (a provider's retry-after may be longer).")
            .define(BACKOFF_MULTIPLIER, Type.DOUBLE, BACKOFF_DEFAULTS.multiplier(), new Check("at least 1", v -> (Double) v >= 1, (n, v) -> n + " must be at least 1, was " + v).saying("backoff settings: "), "delay = min(base * multiplier^attempt, cap).")
            .define(BACKOFF_JITTER, Type.STRING, BACKOFF_DEFAULTS.jitter().toString(), Check.parsedBy("none, full, equal or 0..1", v -> Jitter.parse(v.toString())).saying("backoff settings: "), "How the computed delay is spread so a fleet's retries do not come due in step: none (delays exact), full (uniformly 0 to the delay), equal (half the delay plus up to the other half), or a fraction (0.1: up to ±10 %). Applied before the provider's retry_after and window resets, so never earlier than they allow.")
            .group(RETRY)
            .define(RETRY_TIERS, Type.LIST, RetryTiers.DEFAULT_BOUNDS.stream().map(RetryTiers::name).toList(), Check.parsedBy("durations like 500ms, 5s, 2m, 1h", v -> RetryPolicyConfig.durations(RETRY_TIERS, (List<?>) v)), "Delay tiers (topics retry-delay-<tier>, then retry-delay-long); no backoff setting changes them.")
            .define(RETRY_MAX_DELAY_MS, Type.LONG, RetryPolicy.DEFAULT_MAX_DELAY.toMillis(), Check.notNegative(), "The longest a retry may wait; a longer one is a stop, dead-lettered with rule delay-out-of-range.")
            .define(RETRY_SCHEDULER_INTERVAL_MS, Type.LONG, SchedulerSettings.DEFAULT_CHECK_INTERVAL.toMillis(), Check.atLeast(1), "How often the scheduler checks for due retries.")
            .define(RETRY_SCHEDULER_MAX_PER_CHECK, Type.INT, SchedulerSettings.DEFAULT_MAX_PER_CHECK, Check.between(1, 1_000_000), "Due retries one check forwards at most; the next check resumes there.")
            .group(STATE)
            .define(TASK_STATE_RETENTION_MS, Type.LONG, TaskRetention.DEFAULT_RETENTION.toMillis(), Check.atLeast(1000), "How long a task is remembered after its last completion (or after its retry is due): the de-duplication horizon. Expired tasks are deleted, with tombstones.")
            .define(TASK_STATE_SWEEP_INTERVAL_MS, Type.LONG, TaskRetention.DEFAULT_SWEEP_INTERVAL.toMillis(), Check.atLeast(10), "How often expired tasks are swept from the task stores.")
            .define(ROCKSDB_MEMORY_BYTES, Type.LONG, BoundedRocksDbMemory.DEFAULT_MEMORY_BYTES, Check.atLeast(4L * 1024 * 1024), "All RocksDB stores of the process share one block cache of this size (index and filter blocks included), a quarter of it for write buffers.")
            .define(PUNCTUATION_MAX_CONSECUTIVE_FAILURES, Type.INT, 100, Check.between(1, 1_000_000), "Failures in a row of one stage's scheduled work (a punctuator: the retry scheduler's check, the provider gate's, an analytics flush, a sweep) in one task, with no success between, that end the process with exit status 70 for its supervisor to restart it (docs/operations.md#punctuationsfailing). Each failure is counted in agent_outcomes_punctuation_failures_total.")
            .group(ANALYTICS)
            .define(ANALYTICS_FLUSH_INTERVAL_MS, Type.LONG, ANALYTICS_DEFAULTS.flushInterval().toMillis(), Check.atLeast(1), "How often each task sends its partial aggregates on (docs/analytics.md).")
            .define(ANALYTICS_GRACE_MS, Type.LONG, ANALYTICS_DEFAULTS.grace().toMillis(), Check.notNegative(), "How long after a window's end late outcomes still update it.")
            .define(ANALYTICS_MAX_LABEL_SETS, Type.INT, ANALYTICS_DEFAULTS.maxLabelSets(), Check.between(1, 100_000), "Label sets (agent, model, provider, and tenant and team where they key the windows) that get their own Prometheus series, the most expensive first; the rest are summed under _other.")
            .define(ANALYTICS_DIMENSIONS, Type.LIST, ANALYTICS_DEFAULTS.dimensions().stream().map(Dimension::label).toList(), Check.parsedBy("agent, model, provider, and any of tenant, team, user, tag", v -> Dimension.parseListed((List<?>) v)), "What keys the analytics windows (docs/analytics.md#dimensions): agent, model and provider always, and any of tenant, team, user, tag (the result's first tag). Each one multiplies the aggregates kept and published; tenant and team also label the domain meters, user and tag never do.")
            .define(ANALYTICS_DIMENSION_MAX_VALUES, Type.INT, AnalyticsSettings.DEFAULT_MAX_DIMENSION_VALUES, Check.between(1, 1_000_000), "Distinct values each attribution dimension (tenant, team, user, tag) takes per task and hour window; later values are counted under _other.")
            .define(ANALYTICS_ENABLED, Type.BOOLEAN, ANALYTICS_DEFAULTS.enabled(), null, "Whether the analytics stage runs at all.")
            .define(PRICING_FILE, Type.STRING, "", null, "A price table in genai-prices' format (docs/analytics.md, \"Prices\") whose providers are looked up before the shipped table's. Empty: the shipped table only.")
            .define(PRICING_MISMATCH_TOLERANCE, Type.DOUBLE, PricingSettings.DEFAULT_TOLERANCE.doubleValue(), Check.between(0.0, 100.0), "How far a reported cost may be from the one computed from the price table, as a fraction of the computed cost, before agent_outcomes_cost_mismatch_total counts it.")
            .declare(ProviderGateConfig::declare)
            .declare(RetryBudgetConfig::declare)
            .declare(MetricsConfig::declare)
            .group(LIMITS)
            .define(InputLimits.MAX_RECORD_BYTES_CONFIG, Type.INT, InputLimits.defaults().maxRecordBytes(), Check.atLeast(1024), "The longest input value accepted; longer ones go to rejected-input without their bytes.")
            .define(INPUT_OTLP_TOPIC, Type.STRING, TopicNames.OTLP_SPANS, new Check("a topic name: 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'", v -> ((String) v).matches("[a-zA-Z0-9._-]{1,249}"), (n, v) -> n + " must be a topic name (1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'), was '" + v + "'"), "The topic OTLP trace export requests are read from, in full (topic.prefix is not added): where the OpenTelemetry Collector's Kafka exporter writes spans, otlp_proto or otlp_json (docs/ingestion.md#otlp).")
            .define(InputLimits.MAX_CLOCK_SKEW_CONFIG, Type.LONG, InputLimits.DEFAULT_MAX_CLOCK_SKEW.toMillis(), Check.between(0, 3_600_000), "How far ahead of the wall clock an input record's timestamp (its event time) may be when read; one further ahead is read at the wall clock's time, its own kept in the header producer-timestamp, and counted (agent_outcomes_input_timestamps_clamped_total; docs/ingestion.md).")
            .define(REPLAY_MAX_PAYLOAD_BYTES, Type.INT, REPLAY_DEFAULTS.maxPayloadBytes(), Check.atLeast(64), "A node's payload longer than this is kept in a job's replay state as a summary with its size.")
            .define(REPLAY_MAX_REASON_CHARS, Type.INT, REPLAY_DEFAULTS.maxReasonChars(), Check.atLeast(16), "A reason longer than this is cut, saying how long it was.")
            .define(REPLAY_MAX_STATE_BYTES, Type.INT, REPLAY_DEFAULTS.maxStateBytes(), Check.atLeast(4096), "A job's replay state at most; past it the largest payloads are summarized, then the event is rejected.")
            .configDef();

    /** Declared settings that are passed to the Kafka clients and serdes as well. */
    public static final Set<String> PASSED_THROUGH = Set.of(BASIC_AUTH_USER_INFO);

    /** Settings named per error code, category, agent, fallback chain or budget. */
    public static final List<SettingFamily> FAMILIES = Stream.concat(Stream.of(
            new SettingFamily("policy.category.<category>", "policy.category.rate_limit", POLICY, Type.STRING, HANDLING + " (categories: tool, model, validation, rate_limit, timeout, unknown)",
                    "the preset's", "How failures of a category are handled.", name -> name.startsWith("policy.category.")),
            new SettingFamily("policy.code.<code>", "policy.code.llm-rate-limit", POLICY, Type.STRING, HANDLING + " (any canonical error code, e.g. llm-rate-limit)",
                    "the preset's", "How failures with an error code are handled; before the category.", name -> name.startsWith("policy.code.")),
            new SettingFamily("policy.agent.<agent id>.preset, .max.retries, .max.attempts, .category.<category>, .code.<code>",
                    "policy.agent.billing-bot.preset", POLICY, Type.STRING,
                    "as the global settings", "the global policy", "One agent's own policy, starting from the global one.",
                    name -> name.startsWith("policy.agent.")),
            new SettingFamily("backoff.base.<code>.ms", "backoff.base.llm-timeout.ms", BACKOFF, Type.LONG, "at least 0", "the code's own base",
                    "Base delay of one error code.", name -> name.startsWith("backoff.base.") && name.endsWith(".ms"))),
            Stream.concat(FallbackConfig.FAMILIES.stream(), BudgetConfig.FAMILIES.stream())).toList();

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

    /** Parses settings already checked for their types (see {@link ConfigLoader}); validators throw ConfigError. */
    AgentOutcomesConfig(Map<String, ?> settings) {
        super(CONFIG, settings, false);
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
