package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AgentOutcomesConfig;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigError;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.kafka.BootstrapServers;
import io.agentoutcomes.app.kafka.EmbeddedKafkaBroker;
import io.agentoutcomes.app.kafka.StoreTopics;
import io.agentoutcomes.app.kafka.StreamsProgress;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.app.metrics.ServiceMeterRegistry;
import io.agentoutcomes.app.metrics.StageTimingMeters;
import io.agentoutcomes.app.redrive.Redrive;
import io.agentoutcomes.app.registry.KafkaSchemaStore;
import io.agentoutcomes.app.registry.SchemaRegistryServer;
import io.agentoutcomes.app.registry.TopicSchemas;
import io.agentoutcomes.app.streams.PunctuationFailures;
import io.agentoutcomes.app.streams.StreamThreadFailureHandler;
import io.agentoutcomes.app.streams.UncleanStop;
import io.agentoutcomes.avro.registry.SchemaRegistryUnavailableException;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.topic.Topics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: the embedded broker and schema registry when none are configured, the topics, the
 * Kafka Streams application and the HTTP server. {@link #start} brings them up in that order; {@link #close}
 * takes them down in reverse.
 */
public final class AgentOutcomesService implements AutoCloseable {
    /** The topic the embedded registry keeps its schemas in (Confluent's name for it). */
    public static final String SCHEMAS_TOPIC = "_schemas";

    private static final Logger LOG = LoggerFactory.getLogger(AgentOutcomesService.class);
    /** How often the start tries again what it waits for (Kafka, the schema registry). */
    private static final Duration RETRY_EVERY = Duration.ofSeconds(2);
    /** How long a clean stop waits for the stream threads' last commit and for leaving the group. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final AppConfig config;
    private String bootstrapServers;
    private String registryUrl;
    private KafkaStreams streams;
    private HttpApi http;
    /** Completed with the cause when Kafka Streams fails for good: the process should then exit with an error. */
    private final CompletableFuture<Throwable> fatal = new CompletableFuture<>();
    private final StreamsProgress progress = new StreamsProgress();

    private AgentOutcomesService(AppConfig config) {
        this.config = config;
    }

    /** Starts everything; on a failure, closes what had started and rethrows. */
    public static AgentOutcomesService start(AppConfig config) throws IOException {
        AgentOutcomesService service = new AgentOutcomesService(config);
        try {
            service.startAll();
            return service;
        } catch (IOException | RuntimeException e) {
            service.close();
            throw e;
        }
    }

    private void startAll() throws IOException {
        LOG.info("Starting with {}", config);
        HttpSecurity security = config.httpSecurity();
        if (!security.problems().isEmpty()) {
            throw new ConfigError("Refusing to start: " + String.join("; ", security.problems()));
        }
        if (security.beyondLoopback() && !security.authRequired()) {
            LOG.warn("http.auth.enabled=false: the jobs, analytics, pages and the embedded registry's writes on {} answer "
                    + "anyone who reaches them", config.httpHost());
        }
        if (security.beyondLoopback() && !security.tls()) {
            LOG.warn("http.tls.enabled=false: HTTP on {} is plain text; credentials and data cross the network readable "
                    + "unless a proxy in front terminates TLS", config.httpHost());
        }
        // The HTTP server listens first: /health/live answers from the start (live, not ready) while the service waits
        // for Kafka and its registry, and its address is this instance's application.server, for interactive queries.
        http = listen(AgentOutcomesConfig.HTTP_PORT, config.httpPort(), () -> new HttpApi(config.httpHost(), config.httpPort(), security, config.dashboardProviderSampleInterval()));
        resources.push(http);
        if (config.embeddedKafka()) {
            http.starting("starting the embedded Kafka broker");
            EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(config.dataDir().resolve("kafka"), config.embeddedKafkaPort());
            resources.push(broker);
            bootstrapServers = broker.bootstrapServers();
        } else {
            bootstrapServers = config.bootstrapServers().orElseThrow();
            awaitKafka();
        }
        Map<String, Object> clientConfig = clientConfig();

        if (config.embeddedRegistry()) {
            http.starting("starting the embedded schema registry");
            TopicProvisioner.provision(clientConfig, List.of(new TopicProvisioner.TopicSpec(SCHEMAS_TOPIC, 1, Topics.Cleanup.COMPACT)),
                    config.replicationFactor(), config.createTopics());
            KafkaSchemaStore store = new KafkaSchemaStore(SCHEMAS_TOPIC, clientConfig);
            resources.push(store);
            SchemaRegistryServer registry = listen(AgentOutcomesConfig.EMBEDDED_REGISTRY_PORT, config.embeddedRegistryPort(),
                    () -> new SchemaRegistryServer(store, config.httpHost(), config.embeddedRegistryPort(),
                            config.httpAdvertisedHost(), config.embeddedRegistryMaxRequestBytes(), security));
            resources.push(registry);
            registryUrl = registry.url();
        } else {
            registryUrl = config.schemaRegistryUrl().orElseThrow();
        }

        Map<String, Object> serdeConfig = new HashMap<>(clientConfig);
        serdeConfig.putAll(registryClientSettings());
        Topics topics = new Topics(config.topicPrefix(), serdeConfig, config.pipeline().retry().tiers().names(), config.otlpSpansTopic());
        http.starting("creating topics");
        TopicProvisioner.provision(clientConfig, TopicProvisioner.specsOf(topics, config.partitions()), config.replicationFactor(),
                config.createTopics());
        AvroSerdeConfig avroSerdeConfig = AvroSerdeConfig.from(serdeConfig);
        StartupWait.until(config.embeddedRegistry() ? "the embedded schema registry at " + registryUrl
                        : "the schema registry at " + avroSerdeConfig.newClient().describe() + " (schema.registry.url)",
                () -> {
                    TopicSchemas.register(topics, avroSerdeConfig);
                    return null;
                }, e -> e instanceof SchemaRegistryUnavailableException, http::starting, RETRY_EVERY);

        http.starting("starting Kafka Streams");
        HostInfo self = new HostInfo(config.httpAdvertisedHost(), http.port());
        Properties streamsProperties = StreamsProperties.of(config, clientConfig(), topics);
        streamsProperties.putIfAbsent(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
        Topology topology = AgentOutcomesTopology.build(topics, config.pipeline(), streamsProperties);
        TopicProvisioner.provision(clientConfig, TopicProvisioner.internalTopicsOf(topology.describe(), config.applicationId(),
                config.partitions()), config.replicationFactor(), config.createTopics());
        ServiceMeterRegistry meters = new ServiceMeterRegistry();
        resources.push(meters);
        PrometheusMeterRegistry metrics = meters.registry();
        streamsProperties.put(PunctuationWatch.CONFIG, new PunctuationFailures(metrics, config.maxPunctuationFailures(), fatal::complete));
        StageTimingMeters.register(metrics, streamsProperties);
        UncleanStop.prepare(config.dataDir(), streamsProperties);
        streams = new KafkaStreams(topology, streamsProperties);
        // Leaving the group on a clean stop lets a restarted or remaining instance take the partitions over at once,
        // instead of waiting out this member's session.
        resources.push(() -> {
            if (!streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(CLOSE_TIMEOUT))) {
                LOG.warn("Kafka Streams did not finish closing within {}: work since its last commit is aborted and "
                        + "done again by the instance that takes its partitions over", CLOSE_TIMEOUT);
            } else {
                UncleanStop.markClean(config.dataDir());
            }
        });
        streams.setStateListener((newState, oldState) -> {
            progress.stateChanged(newState);
            if (newState == KafkaStreams.State.ERROR) {
                fatal.complete(new IllegalStateException("Kafka Streams is in state ERROR (was " + oldState + ")"));
            }
        });
        streams.setUncaughtExceptionHandler(new StreamThreadFailureHandler(fatal::complete));
        streams.setGlobalStateRestoreListener(progress);
        http.attach(new HttpApi.Context(streams, self, progress, StoreTopics.of(topology.describe(), config.applicationId()),
                metrics, new Redrive(clientConfig, topics, config.applicationId(), Clock.systemUTC()),
                new HttpApi.Settings(config.pipeline().analytics(), config.pipeline().budgets(), config.metrics())));
        streams.start();
    }

    /**
     * Waits until Kafka answers: first until a bootstrap server accepts a connection (no Kafka client runs before, so
     * the log is not a stream of the client's connection warnings), then until the cluster describes itself. An
     * authentication or authorization failure is an answer: the start fails with it.
     */
    private void awaitKafka() throws IOException {
        Map<String, Object> probe = new HashMap<>(clientConfig());
        probe.put(AdminClientConfig.CLIENT_ID_CONFIG, config.applicationId() + "-startup");
        probe.putIfAbsent(AdminClientConfig.RETRIES_CONFIG, 0);
        StartupWait.until("Kafka at " + bootstrapServers + " (bootstrap.servers)", () -> {
            BootstrapServers.awaitConnectable(bootstrapServers, Duration.ofSeconds(2));
            try (Admin admin = Admin.create(probe)) {
                return admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000)).nodes().get();
            }
        }, e -> !(rootCause(e) instanceof AuthenticationException || rootCause(e) instanceof AuthorizationException),
                http::starting, RETRY_EVERY);
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private interface Server<T> {
        T start() throws IOException;
    }

    /** Starts a server, saying which setting to change when its port is taken. */
    private <T> T listen(String setting, int port, Server<T> server) throws IOException {
        try {
            return server.start();
        } catch (BindException e) {
            throw new IOException("Cannot listen on " + config.httpHost() + ":" + port + " (" + e.getMessage()
                    + "): another process has the port; choose another with " + setting, e);
        }
    }

    /**
     * The serde settings of a client of this service's schema registry: its URL and, for the embedded registry, the
     * service's own credentials and trust store ({@link HttpSecurity#registryClientSettings}); for another registry, the
     * configured ones ({@code basic.auth.user.info}, ...) are among the {@link #clientConfig}.
     */
    public Map<String, String> registryClientSettings() {
        Map<String, String> settings = new HashMap<>();
        settings.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl);
        if (config.embeddedRegistry()) {
            settings.putAll(config.httpSecurity().registryClientSettings());
        }
        return settings;
    }

    /** Settings every Kafka client of the service gets: the pass-through ones and the bootstrap servers. */
    public Map<String, Object> clientConfig() {
        Map<String, Object> clients = new HashMap<>(config.kafka());
        clients.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return clients;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public String schemaRegistryUrl() {
        return registryUrl;
    }

    public String httpUrl() {
        return http.url();
    }

    /** The credentials and TLS of its HTTP API and embedded registry. */
    public HttpSecurity httpSecurity() {
        return config.httpSecurity();
    }

    /** Completes, with the cause, when this instance can no longer work and should be restarted. */
    public CompletableFuture<Throwable> fatalError() {
        return fatal;
    }

    /** Records each store restored from its changelog since the start. */
    public Map<String, Long> restoredRecords() {
        return progress.restoredRecords();
    }

    public KafkaStreams.State streamsState() {
        return streams.state();
    }

    /** Kafka Streams' metrics and those of its clients (for the benchmarks; {@code /metrics} serves them to others). */
    public Map<MetricName, ? extends Metric> streamsMetrics() {
        return streams.metrics();
    }

    /** Closes everything that started, last started first. Safe to call more than once. */
    @Override
    public synchronized void close() {
        while (!resources.isEmpty()) {
            AutoCloseable resource = resources.pop();
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("Error while closing {}: {}", resource, e.toString());
            }
        }
    }
}
