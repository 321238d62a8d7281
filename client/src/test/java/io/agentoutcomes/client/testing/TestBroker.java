package io.agentoutcomes.client.testing;

import static org.apache.kafka.test.TestUtils.retryOnExceptionWithTimeout;

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
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The test broker of the {@code client} and {@code app} tests, as a JUnit 5 extension: a real single-node KRaft Kafka
 * in the test JVM, at the latest production metadata version with every production feature at its default level (the
 * test kit's own default is an unstable version, with which exactly-once misbehaves).
 *
 * <p>On a static field ({@code @RegisterExtension static final TestBroker kafka = new TestBroker();}) one broker
 * serves the whole class; on an instance field each test gets a broker of its own.
 */
public final class TestBroker implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private KafkaClusterTestKit cluster;
    private boolean perClass;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        perClass = true;
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (!perClass) {
            stop();
        }
    }

    public String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** Creates topics and waits until every partition answers (an idempotent producer may drop a batch before). */
    public void createTopics(int partitions, String... names) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.createTopics(List.of(names).stream().map(n -> new NewTopic(n, partitions, (short) 1)).toList()).all().get();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (String name : names) {
                for (int p = 0; p < partitions; p++) {
                    latest.put(new TopicPartition(name, p), OffsetSpec.latest());
                }
            }
            retryOnExceptionWithTimeout(100, 30_000, () -> admin.listOffsets(latest).all().get());
        }
    }

    private void start() throws Exception {
        MetadataVersion version = MetadataVersion.latestProduction();
        Map<String, Short> features = Feature.PRODUCTION_FEATURES.stream()
                .filter(f -> f != Feature.KRAFT_VERSION)
                .collect(Collectors.toMap(Feature::featureName, f -> f.defaultLevel(version)));
        TestKitNodes nodes = new TestKitNodes.Builder(BootstrapMetadata.fromVersions(version, features, "agent-outcomes tests"))
                .setCombined(true)
                .setNumBrokerNodes(1)
                .setNumControllerNodes(1)
                .build();
        cluster = new KafkaClusterTestKit.Builder(nodes)
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
    }

    private void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }
}
