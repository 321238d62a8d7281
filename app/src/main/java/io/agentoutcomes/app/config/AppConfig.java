package io.agentoutcomes.app.config;

import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.app.metrics.MetricsSettings;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.TaskRetention;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;

/**
 * The service's configuration, parsed once from defaults, a properties file, the environment and flags
 * ({@link ConfigLoader}), then passed down unchanged.
 *
 * @param bootstrapServers     Kafka to use; empty runs the embedded broker
 * @param schemaRegistryUrl    the schema registry to use; empty runs the embedded registry
 * @param applicationId        the Kafka Streams application id (instances with the same id share the work)
 * @param topicPrefix          prepended to every topic name
 * @param otlpSpansTopic       the topic OTLP trace export requests are read from, in full (no prefix)
 * @param partitions           partitions of the topics the service creates
 * @param replicationFactor    replication factor of the topics it creates (-1: the broker's default)
 * @param createTopics         whether it creates missing topics, or only checks they exist
 * @param dataDir              where the embedded broker's log and the streams state live
 * @param httpHost             address of the HTTP server (health)
 * @param httpPort             port of the HTTP server
 * @param httpAdvertisedHost   the host other instances reach this one's HTTP server at (interactive queries)
 * @param dashboardProviderSampleInterval how often the dashboard's provider sparklines sample the provider gate
 * @param embeddedKafkaPort    port of the embedded broker's client listener
 * @param embeddedRegistryPort port of the embedded schema registry
 * @param embeddedRegistryMaxRequestBytes request bodies the embedded registry reads at most (longer ones: 413)
 * @param logFormat            log lines as text or JSON
 * @param httpSecurity         credentials and TLS of the HTTP server and the embedded registry
 * @param retryPolicy          classification policies, backoff and retry tiers
 * @param scheduler            how often the retry scheduler checks for due retries, and how many one check forwards
 * @param analytics            analytics flush interval and window grace
 * @param replayLimits         how large a job's replay state may grow
 * @param inputLimits          how large one input record may be
 * @param pricing              the price table and the tolerance of a reported cost
 * @param providers            the provider gate: pacing and circuits per provider
 * @param budgets              the declared cost budgets (none: no budget stage)
 * @param taskRetention        how long the classifier remembers a task, and how expired ones are swept
 * @param rocksDbMemoryBytes   the memory all RocksDB stores share
 * @param maxPunctuationFailures failures in a row of one punctuator in one task that end the process
 * @param metrics              how finely /metrics exports Kafka Streams' metrics, and the OTLP push if any
 * @param kafka                every other setting, passed to the Kafka clients and Kafka Streams as it is
 */
public record AppConfig(
        Optional<String> bootstrapServers,
        Optional<String> schemaRegistryUrl,
        String applicationId,
        String topicPrefix,
        String otlpSpansTopic,
        int partitions,
        short replicationFactor,
        boolean createTopics,
        Path dataDir,
        String httpHost,
        int httpPort,
        String httpAdvertisedHost,
        Duration dashboardProviderSampleInterval,
        int embeddedKafkaPort,
        int embeddedRegistryPort,
        int embeddedRegistryMaxRequestBytes,
        LogFormat logFormat,
        HttpSecurity httpSecurity,
        RetryPolicy retryPolicy,
        SchedulerSettings scheduler,
        AnalyticsSettings analytics,
        ReplayLimits replayLimits,
        InputLimits inputLimits,
        PricingSettings pricing,
        ProviderGateSettings providers,
        BudgetSettings budgets,
        TaskRetention taskRetention,
        long rocksDbMemoryBytes,
        int maxPunctuationFailures,
        MetricsSettings metrics,
        Map<String, String> kafka) {

    private static final String HIDDEN = "[hidden]";

    public AppConfig {
        kafka = Map.copyOf(kafka);
        if (partitions < 1) {
            throw new IllegalArgumentException("topic.partitions must be at least 1, was " + partitions);
        }
    }

    /** Whether the service runs its own broker. */
    public boolean embeddedKafka() {
        return bootstrapServers.isEmpty();
    }

    /** Whether the service runs its own schema registry. */
    public boolean embeddedRegistry() {
        return schemaRegistryUrl.isEmpty();
    }

    /**
     * The pass-through settings for logs: a secret ({@link AgentOutcomesConfig#isSecret}, a {@code PASSWORD} of the
     * service's or Kafka's declarations) is shown as {@code [hidden]}, and so is a setting nobody declares (a plugin's
     * own: its type, and so whether it is a secret, is unknown).
     */
    public Map<String, String> kafkaForDisplay() {
        Map<String, String> shown = new TreeMap<>();
        kafka.forEach((k, v) -> shown.put(k,
                AgentOutcomesConfig.isSecret(k) || !AgentOutcomesConfig.isDeclared(k) ? HIDDEN : v));
        return shown;
    }

    /** The values that must never be shown: every secret setting's, for the log's last line of defence ({@code LogMasking}). */
    public Set<String> secretValues() {
        Set<String> secrets = new HashSet<>();
        kafka.forEach((k, v) -> {
            if (AgentOutcomesConfig.isSecret(k) || !AgentOutcomesConfig.isDeclared(k)) {
                secrets.add(v);
            }
        });
        kafka.forEach((k, v) -> {
            if (AgentOutcomesConfig.isSecret(k)) {
                secrets.addAll(jaasOptionValues(v));
            }
        });
        schemaRegistryUrl.ifPresent(urls -> Arrays.stream(urls.split(",")).map(AppConfig::userInfo)
                .flatMap(Optional::stream).forEach(secrets::add));
        secrets.addAll(httpSecurity.secretValues());
        secrets.removeIf(String::isBlank);
        return secrets;
    }

    /** The option values of a JAAS configuration (password="..."), parsed by Kafka's own parser; none if it is not one. */
    private static List<String> jaasOptionValues(String value) {
        if (!value.contains("LoginModule")) {
            return List.of();
        }
        try {
            return JaasContext.loadClientContext(Map.of(
                            SaslConfigs.SASL_JAAS_CONFIG,
                            new Password(value)))
                    .configurationEntries().stream()
                    .flatMap(entry -> entry.getOptions().values().stream()).map(String::valueOf)
                    .filter(option -> option.length() >= 4).toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** A URL with its user info (credentials) replaced by [hidden]. */
    static String withoutCredentials(String urls) {
        StringBuilder shown = new StringBuilder();
        for (String url : urls.split(",", -1)) {
            shown.append(shown.length() == 0 ? "" : ",").append(userInfo(url).map(info -> url.replace(info + "@", HIDDEN + "@"))
                    .orElse(url));
        }
        return shown.toString();
    }

    private static Optional<String> userInfo(String url) {
        try {
            return Optional.ofNullable(URI.create(url.trim()).getRawUserInfo());
        } catch (IllegalArgumentException e) {
            int at = url.indexOf('@');
            int scheme = url.indexOf("//");
            return at > scheme && scheme >= 0 ? Optional.of(url.substring(scheme + 2, at)) : Optional.empty();
        }
    }

    /** The settings the pipeline's stages are built with. */
    public PipelineSettings pipeline() {
        return new PipelineSettings(retryPolicy, scheduler, taskRetention, analytics, replayLimits, inputLimits, pricing,
                providers, budgets);
    }

    @Override
    public String toString() {
        return "AppConfig[bootstrapServers=" + bootstrapServers.orElse("(embedded)")
                + ", schemaRegistryUrl=" + schemaRegistryUrl.map(AppConfig::withoutCredentials).orElse("(embedded)")
                + ", applicationId=" + applicationId + ", topicPrefix=" + topicPrefix + ", otlpSpansTopic=" + otlpSpansTopic + ", partitions=" + partitions
                + ", replicationFactor=" + replicationFactor + ", createTopics=" + createTopics + ", dataDir=" + dataDir + ", http=" + httpHost + ":" + httpPort
                + " (" + httpSecurity + ")"
                + ", kafka=" + kafkaForDisplay() + "]";
    }
}
