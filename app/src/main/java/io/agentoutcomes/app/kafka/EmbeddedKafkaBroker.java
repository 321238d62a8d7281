package io.agentoutcomes.app.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka (KRaft, broker and controller in one) running in this JVM: the embedded default for trying
 * the service on a machine with nothing installed. Its log lives in a directory of its own, formatted once with a
 * fixed cluster id, so a restart finds its topics and offsets again. Listens on 127.0.0.1 only.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    /** Fixed, so that the directory formatted on the first run is the same cluster on every later one. */
    static final String CLUSTER_ID = new Uuid(0x6167656e742d6f75L, 0x74636f6d65730001L).toString();
    private static final int NODE_ID = 1;

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Formats {@code logDir} if it is new, starts the broker and waits until it answers.
     *
     * @param port the client port (0 picks a free one); the controller listens on another free port
     */
    public static EmbeddedKafkaBroker start(Path logDir, int port) throws IOException {
        Files.createDirectories(logDir);
        int brokerPort = port == 0 ? freePort() : port;
        int controllerPort = controllerPort(logDir);
        Properties props = serverProperties(logDir, brokerPort, controllerPort);
        format(logDir, props);

        try (ServerSocket probe = new ServerSocket(brokerPort, 1, InetAddress.getLoopbackAddress())) {
            probe.setReuseAddress(true);
        } catch (IOException e) {
            throw new IOException("The embedded Kafka broker cannot listen on 127.0.0.1:" + brokerPort + " (" + e.getMessage()
                    + "): another process has the port; choose another with embedded.kafka.port, or point "
                    + "bootstrap.servers at a running Kafka", e);
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        String bootstrap = "127.0.0.1:" + brokerPort;
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(server, bootstrap);
        try {
            broker.awaitReady(Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            broker.close();
            throw e;
        }
        LOG.info("Embedded Kafka broker listening on {} (data in {})", bootstrap, logDir.toAbsolutePath());
        return broker;
    }

    /** The address clients connect to. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    private static Properties serverProperties(Path logDir, int brokerPort, int controllerPort) {
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", String.valueOf(NODE_ID)),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort),
                Map.entry("log.dirs", logDir.toAbsolutePath().toString()),
                Map.entry("num.partitions", "1"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "4"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "4"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Transactions v2: a produce to a partition whose previous transaction's markers are still being
                // written is retried here, on the broker, for this long before the producer is answered
                // CONCURRENT_TRANSACTIONS and retries after its own 100 ms backoff (KAFKA-18654, KAFKA-20000). The
                // pipeline's transactions span ten or more partitions each commit interval (docs/benchmarks.md).
                Map.entry("add.partitions.to.txn.retry.backoff.max.ms", "1000"),
                Map.entry("broker.session.timeout.ms", "2500"),
                Map.entry("broker.heartbeat.interval.ms", "500")));
        return props;
    }

    /** Formats the log directory unless it already is (then the existing cluster is kept). */
    private static void format(Path logDir, Properties props) throws IOException {
        Path configFile = logDir.resolve("server.properties");
        try (Writer writer = Files.newBufferedWriter(configFile)) {
            props.store(writer, "written by agent-outcomes for its embedded broker");
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exit = StorageTool.execute(new String[] {"format", "--ignore-formatted", "--cluster-id", CLUSTER_ID,
                    "--config", configFile.toString()}, out);
        }
        String said = output.toString(StandardCharsets.UTF_8).trim();
        if (exit != 0) {
            throw new IllegalStateException("Could not format the embedded broker's log directory " + logDir + ": " + said);
        }
        LOG.debug("Storage format: {}", said);
    }

    /** The controller port is kept in the log directory: the quorum's address must not change across restarts. */
    private static int controllerPort(Path logDir) throws IOException {
        Path file = logDir.resolve("controller.port");
        if (Files.exists(file)) {
            return Integer.parseInt(Files.readString(file).trim());
        }
        int port = freePort();
        Files.writeString(file, String.valueOf(port));
        return port;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void awaitReady(Duration timeout) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("The embedded Kafka broker did not answer on " + bootstrapServers + ": " + e, e);
        }
    }
}
