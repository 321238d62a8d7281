package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node KRaft Kafka in the test JVM, at the latest production metadata version with every production
 * feature at its default level (the test kit's own default is an unstable version, with which exactly-once
 * misbehaves).
 */
public final class KafkaTestCluster implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private KafkaTestCluster(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    public static KafkaTestCluster start() throws Exception {
        MetadataVersion version = MetadataVersion.latestProduction();
        Map<String, Short> features = Feature.PRODUCTION_FEATURES.stream()
                .filter(f -> f != Feature.KRAFT_VERSION)
                .collect(Collectors.toMap(Feature::featureName, f -> f.defaultLevel(version)));
        TestKitNodes nodes = new TestKitNodes.Builder(BootstrapMetadata.fromVersions(version, features, "agent-outcomes tests"))
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "4")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "4")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return new KafkaTestCluster(cluster);
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /**
     * The settings of a service on this cluster (the embedded registry, ephemeral HTTP and registry ports) with
     * {@code partitions} partitions, its data under {@code dataDir}, and {@code extra} name/value pairs on top.
     */
    public AppConfig serviceConfig(Path dataDir, int partitions, String... extra) {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < extra.length; i += 2) {
            settings.put(extra[i], extra[i + 1]);
        }
        return serviceConfig(dataDir, partitions, settings);
    }

    /** As {@link #serviceConfig(Path, int, String...)}, the further settings as a map (they override the others). */
    public AppConfig serviceConfig(Path dataDir, int partitions, Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(Map.of(
                ConfigLoader.BOOTSTRAP_SERVERS, bootstrapServers(),
                ConfigLoader.TOPIC_PARTITIONS, String.valueOf(partitions),
                ConfigLoader.DATA_DIR, dataDir.toString(),
                ConfigLoader.HTTP_PORT, "0",
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0"));
        settings.putAll(extra);
        return ConfigLoader.load(Optional.empty(), Map.of(), settings);
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
