package io.agentoutcomes.app.config;

import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.replay.ReplayLimits;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The service's configuration, parsed once from defaults, a properties file, the environment and flags
 * ({@link ConfigLoader}), then passed down unchanged.
 *
 * @param bootstrapServers     Kafka to use; empty runs the embedded broker
 * @param schemaRegistryUrl    the schema registry to use; empty runs the embedded registry
 * @param applicationId        the Kafka Streams application id (instances with the same id share the work)
 * @param topicPrefix          prepended to every topic name
 * @param partitions           partitions of the topics the service creates
 * @param replicationFactor    replication factor of the topics it creates (-1: the broker's default)
 * @param dataDir              where the embedded broker's log and the streams state live
 * @param httpHost             address of the HTTP server (health)
 * @param httpPort             port of the HTTP server
 * @param httpAdvertisedHost   the host other instances reach this one's HTTP server at (interactive queries)
 * @param embeddedKafkaPort    port of the embedded broker's client listener
 * @param embeddedRegistryPort port of the embedded schema registry
 * @param embeddedRegistryMaxRequestBytes request bodies the embedded registry reads at most (longer ones: 413)
 * @param retryPolicy          classification policies, backoff, retry tiers and scheduler interval
 * @param analytics            analytics flush interval and window grace
 * @param replayLimits         how large a job's replay state may grow
 * @param inputLimits          how large one input record may be
 * @param kafka                every other setting, passed to the Kafka clients and Kafka Streams as it is
 */
public record AppConfig(
        Optional<String> bootstrapServers,
        Optional<String> schemaRegistryUrl,
        String applicationId,
        String topicPrefix,
        int partitions,
        short replicationFactor,
        Path dataDir,
        String httpHost,
        int httpPort,
        String httpAdvertisedHost,
        int embeddedKafkaPort,
        int embeddedRegistryPort,
        int embeddedRegistryMaxRequestBytes,
        RetryPolicy retryPolicy,
        AnalyticsSettings analytics,
        ReplayLimits replayLimits,
        InputLimits inputLimits,
        Map<String, String> kafka) {

    private static final Pattern SECRET = Pattern.compile(
            "(?i).*(password|secret|jaas|user\\.info|token|credential|private|key\\.pem|api\\.key).*");

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

    /** Whether a setting's value must never be printed or logged. */
    public static boolean isSecret(String key) {
        return SECRET.matcher(key).matches();
    }

    /** The pass-through settings with secrets hidden, for logs. */
    public Map<String, String> kafkaForDisplay() {
        Map<String, String> shown = new TreeMap<>();
        kafka.forEach((k, v) -> shown.put(k, isSecret(k) ? "[hidden]" : v));
        return shown;
    }

    @Override
    public String toString() {
        return "AppConfig[bootstrapServers=" + bootstrapServers.orElse("(embedded)")
                + ", schemaRegistryUrl=" + schemaRegistryUrl.map(u -> u.replaceAll("//[^@/]*@", "//[hidden]@")).orElse("(embedded)")
                + ", applicationId=" + applicationId + ", topicPrefix=" + topicPrefix + ", partitions=" + partitions
                + ", replicationFactor=" + replicationFactor + ", dataDir=" + dataDir + ", http=" + httpHost + ":" + httpPort
                + ", kafka=" + kafkaForDisplay() + "]";
    }
}
