package io.agentoutcomes.bench;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.kafka.EmbeddedKafkaBroker;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.app.registry.KafkaSchemaStore;
import io.agentoutcomes.app.registry.SchemaRegistryServer;
import io.agentoutcomes.topology.topic.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The one broker and schema registry every suite of a run uses: a broker and registry in this JVM (as the service's
 * embedded default starts them), or the ones given by address. Also owns the run's scratch directory.
 */
final class BenchCluster implements AutoCloseable {
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private final Path dir;
    private String bootstrapServers;
    private String registryUrl;
    private boolean embeddedBroker;

    private BenchCluster(Path dir) {
        this.dir = dir;
    }

    /** Starts what is not given: a broker when {@code bootstrap} is empty, a registry when {@code registry} is. */
    static BenchCluster start(Optional<String> bootstrap, Optional<String> registry) throws IOException {
        BenchCluster cluster = new BenchCluster(Files.createTempDirectory("agent-outcomes-bench"));
        try {
            if (bootstrap.isPresent()) {
                cluster.bootstrapServers = bootstrap.get();
            } else {
                EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(cluster.dir.resolve("kafka"), 0);
                cluster.resources.push(broker);
                cluster.bootstrapServers = broker.bootstrapServers();
                cluster.embeddedBroker = true;
            }
            if (registry.isPresent()) {
                cluster.registryUrl = registry.get();
            } else {
                Map<String, Object> clients = cluster.clientConfig();
                TopicProvisioner.ensure(clients, List.of(new TopicProvisioner.TopicSpec(AgentOutcomesService.SCHEMAS_TOPIC, 1,
                        Topics.Cleanup.COMPACT)), (short) -1);
                KafkaSchemaStore store = new KafkaSchemaStore(AgentOutcomesService.SCHEMAS_TOPIC, clients);
                cluster.resources.push(store);
                SchemaRegistryServer server = new SchemaRegistryServer(store, "127.0.0.1", 0);
                cluster.resources.push(server);
                cluster.registryUrl = server.url();
            }
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    String registryUrl() {
        return registryUrl;
    }

    /** Where the suites keep state directories and the like. */
    Path dir() {
        return dir;
    }

    String describe() {
        return (embeddedBroker ? "embedded broker (in this JVM) " : "broker ") + bootstrapServers + ", schema registry "
                + registryUrl;
    }

    Map<String, Object> clientConfig() {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    }

    @Override
    public void close() {
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception e) {
                System.err.println("closing: " + e);
            }
        }
        deleteQuietly(dir);
    }

    static void deleteQuietly(Path path) {
        try (var walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // scratch space only
        }
    }
}
