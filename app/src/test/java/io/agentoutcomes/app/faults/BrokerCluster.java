package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Kafka brokers as their own processes, started from the service's shaded jar ({@code kafka.Kafka}): KRaft, each node
 * broker and controller in one, with a fixed cluster id so a restarted node finds its log. One node with replication
 * factors 1, or three with replication 3 and {@code min.insync.replicas} 2. A short broker session lets a node killed
 * with SIGKILL rejoin in seconds.
 */
final class BrokerCluster implements AutoCloseable {
    private static final String CLUSTER_ID = "ZmF1bHRzLXN1aXRlLTAwMQ";

    private final Path dir;
    private final int size;
    private final int[] brokerPorts;
    private final int[] controllerPorts;
    private final ManagedProcess[] nodes;

    private BrokerCluster(Path dir, int size) throws IOException {
        this.dir = dir;
        this.size = size;
        this.brokerPorts = new int[size];
        this.controllerPorts = new int[size];
        this.nodes = new ManagedProcess[size];
        for (int i = 0; i < size; i++) {
            brokerPorts[i] = freePort();
            controllerPorts[i] = freePort();
        }
    }

    /** Formats and starts {@code size} nodes (1 or 3) under {@code dir} and waits until every broker answers. */
    /** The brokers' logs (their own lines and Kafka's, at INFO). */
    List<Path> logs() {
        return IntStream.range(0, nodes.length).mapToObj(node -> dir.resolve("node-" + node + ".log")).toList();
    }

    static BrokerCluster start(Path dir, int size) throws Exception {
        BrokerCluster cluster = new BrokerCluster(dir, size);
        try {
            for (int node = 0; node < size; node++) {
                cluster.format(node);
            }
            for (int node = 0; node < size; node++) {
                cluster.launch(node);
            }
            cluster.awaitBrokers(size, Duration.ofSeconds(90));
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return IntStream.of(brokerPorts).mapToObj(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    int size() {
        return size;
    }

    /** SIGKILL one node. */
    void kill(int node) {
        nodes[node].kill();
    }

    /** Starts a killed node again on its old log and ports. */
    void restart(int node) throws IOException {
        launch(node);
    }

    /** Waits until {@code count} brokers are registered and answering. */
    void awaitBrokers(int count, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000))) {
            while (System.nanoTime() < deadline) {
                try {
                    if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= count) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException(count + " brokers did not answer on " + bootstrapServers() + " within " + timeout
                + (last == null ? "" : ": " + last), last);
    }

    private void format(int node) throws IOException, InterruptedException {
        Path config = writeConfig(node);
        ManagedProcess format = ManagedProcess.start("format-" + node, dir.resolve("node-" + node + ".log"),
                ManagedProcess.lightJvm("128m"), List.of("-cp", ManagedProcess.jar().toString(), "kafka.tools.StorageTool",
                        "format", "--ignore-formatted", "--cluster-id", CLUSTER_ID, "--config", config.toString()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (format.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        format.close();
    }

    private void launch(int node) throws IOException {
        nodes[node] = ManagedProcess.start("broker-" + node, dir.resolve("node-" + node + ".log"),
                List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError",
                        "-Dagent-outcomes.log.level=warn",
                        // Kafka's lines at INFO: the transaction coordinators' roll-backs (HangingTransactions)
                        "-Dagent-outcomes.kafka.log.level=" + System.getProperty("fault.kafka.log.level", "INFO")),
                List.of("-cp", ManagedProcess.jar().toString(), "kafka.Kafka", dir.resolve("node-" + node + ".properties").toString()));
    }

    private Path writeConfig(int node) throws IOException {
        int replication = size == 1 ? 1 : 3;
        int minIsr = size == 1 ? 1 : 2;
        String voters = IntStream.range(0, size).mapToObj(i -> (i + 1) + "@127.0.0.1:" + controllerPorts[i])
                .collect(Collectors.joining(","));
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", String.valueOf(node + 1)),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + brokerPorts[node] + ",CONTROLLER://127.0.0.1:" + controllerPorts[node]),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPorts[node]),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("controller.quorum.voters", voters),
                Map.entry("log.dirs", dir.resolve("node-" + node + "-log").toAbsolutePath().toString()),
                Map.entry("num.partitions", "1"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("default.replication.factor", String.valueOf(replication)),
                Map.entry("min.insync.replicas", String.valueOf(minIsr)),
                Map.entry("offsets.topic.replication.factor", String.valueOf(replication)),
                Map.entry("offsets.topic.num.partitions", "4"),
                Map.entry("transaction.state.log.replication.factor", String.valueOf(replication)),
                Map.entry("transaction.state.log.min.isr", String.valueOf(minIsr)),
                Map.entry("transaction.state.log.num.partitions", "4"),
                Map.entry("share.coordinator.state.topic.replication.factor", String.valueOf(replication)),
                Map.entry("share.coordinator.state.topic.min.isr", String.valueOf(minIsr)),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                Map.entry("broker.session.timeout.ms", "2500"),
                Map.entry("broker.heartbeat.interval.ms", "500"),
                // a restarted follower catches up and rejoins the ISR quickly instead of after the 30 s default
                Map.entry("replica.lag.time.max.ms", "5000"),
                Map.entry("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE))));
        Files.createDirectories(dir);
        Path file = dir.resolve("node-" + node + ".properties");
        try (Writer writer = Files.newBufferedWriter(file)) {
            props.store(writer, "fault-injection broker " + (node + 1) + " of " + size);
        }
        return file;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (ManagedProcess node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
