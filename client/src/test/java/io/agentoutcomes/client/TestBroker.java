package io.agentoutcomes.client;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node KRaft broker in the test JVM (the app module's tests use the same recipe), at the latest
 * production metadata version with every production feature at its default level, so transactions work.
 */
final class TestBroker implements AutoCloseable {
    private final KafkaClusterTestKit cluster;

    private TestBroker(KafkaClusterTestKit cluster) {
        this.cluster = cluster;
    }

    static TestBroker start() throws Exception {
        MetadataVersion version = MetadataVersion.latestProduction();
        Map<String, Short> features = Feature.PRODUCTION_FEATURES.stream()
                .filter(f -> f != Feature.KRAFT_VERSION)
                .collect(Collectors.toMap(Feature::featureName, f -> f.defaultLevel(version)));
        TestKitNodes nodes = new TestKitNodes.Builder(BootstrapMetadata.fromVersions(version, features, "client tests"))
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build();
        KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("offsets.topic.num.partitions", "2")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("transaction.state.log.num.partitions", "2")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("auto.create.topics.enable", "false")
                .build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return new TestBroker(cluster);
    }

    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates topics and waits until every partition answers (an idempotent producer may drop a batch before). */
    void createTopics(int partitions, String... names) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.createTopics(List.of(names).stream().map(n -> new NewTopic(n, partitions, (short) 1)).toList()).all().get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (String name : names) {
                for (int p = 0; p < partitions; p++) {
                    latest.put(new TopicPartition(name, p), OffsetSpec.latest());
                }
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (true) {
                try {
                    admin.listOffsets(latest).all().get();
                    return;
                } catch (Exception e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw e;
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
