package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * One Kafka node (KRaft, broker and controller in one) as its own process, secured as operators run Kafka: a
 * {@code SASL_SSL} listener with SCRAM-SHA-512 users created when the log directory is formatted, an {@code SSL}
 * listener requiring client certificates (mutual TLS; the principal is the certificate's CN), ACLs enforced by KRaft's
 * {@code StandardAuthorizer} with nothing allowed where no ACL says so. A {@code PLAINTEXT} listener on 127.0.0.1 is
 * the inter-broker listener and the test's own door (its principal, {@code ANONYMOUS}, is the only super user): the
 * test grants ACLs, produces input and reads outputs through it, the service never uses it.
 *
 * <p>The certificates are made by the JDK's {@code keytool} as an operator would: the broker's for {@code localhost}
 * and {@code 127.0.0.1}, the service's client certificate for {@code CN=agent-outcomes}, and one trust store holding
 * both.
 */
final class SecuredBroker implements AutoCloseable {
    static final String CLUSTER_ID = "c2VjdXJlZC1jbHVzdGVyMDE";
    /** The service's principal: its SCRAM user name, and the CN of its client certificate. */
    static final String PRINCIPAL = "agent-outcomes";

    private final Path dir;
    private final String password;
    private final int plaintextPort;
    private final int saslSslPort;
    private final int sslPort;
    private final int controllerPort;
    private ManagedProcess node;

    private SecuredBroker(Path dir) throws IOException {
        this.dir = dir;
        this.password = "pa55-" + Long.toHexString(System.nanoTime());
        this.plaintextPort = freePort();
        this.saslSslPort = freePort();
        this.sslPort = freePort();
        this.controllerPort = freePort();
    }

    /** Makes the certificates, formats the log with the SCRAM user and starts the node; waits until it answers. */
    static SecuredBroker start(Path dir) throws Exception {
        SecuredBroker broker = new SecuredBroker(dir);
        try {
            Files.createDirectories(dir);
            broker.certificates();
            Path config = broker.writeConfig();
            broker.run("format", List.of("-cp", ManagedProcess.jar().toString(), "kafka.tools.StorageTool", "format",
                    "--ignore-formatted", "--cluster-id", CLUSTER_ID, "--config", config.toString(),
                    "--add-scram", "SCRAM-SHA-512=[name=" + PRINCIPAL + ",password=" + broker.password + "]"));
            broker.node = ManagedProcess.start("secured-broker", dir.resolve("broker.log"),
                    List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError",
                            "-Dagent-outcomes.log.level=warn"),
                    List.of("-cp", ManagedProcess.jar().toString(), "kafka.Kafka", config.toString()));
            broker.awaitBroker(Duration.ofSeconds(90));
            return broker;
        } catch (Exception | AssertionError e) {
            broker.close();
            throw e;
        }
    }

    /** The SCRAM password and the key stores' password: a secret no log line of the service may show. */
    String secret() {
        return password;
    }

    /** The test's own door: {@code PLAINTEXT}, the super user. */
    String plaintextBootstrap() {
        return "127.0.0.1:" + plaintextPort;
    }

    /** Where the service connects with SCRAM over TLS. */
    String saslSslBootstrap() {
        return "127.0.0.1:" + saslSslPort;
    }

    /** Where the service connects with its client certificate. */
    String sslBootstrap() {
        return "127.0.0.1:" + sslPort;
    }

    /** The service's Kafka settings for {@code SASL_SSL} with SCRAM-SHA-512, as docs/operations.md lists them. */
    Map<String, String> saslSslSettings() {
        return Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + PRINCIPAL + "\" password=\"" + password + "\";",
                "ssl.truststore.location", trustStore().toString(), "ssl.truststore.password", password,
                "ssl.truststore.type", "PKCS12");
    }

    /** The service's Kafka settings for mutual TLS, as docs/operations.md lists them. */
    Map<String, String> mutualTlsSettings() {
        return Map.of("security.protocol", "SSL",
                "ssl.keystore.location", dir.resolve("client.p12").toString(), "ssl.keystore.password", password,
                "ssl.keystore.type", "PKCS12", "ssl.key.password", password,
                "ssl.truststore.location", trustStore().toString(), "ssl.truststore.password", password,
                "ssl.truststore.type", "PKCS12");
    }

    private Path trustStore() {
        return dir.resolve("trust.p12");
    }

    private void certificates() throws IOException, InterruptedException {
        keytool("broker", List.of("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", dir.resolve("broker.p12").toString(), "-storepass", password, "-keypass", password));
        keytool("client", List.of("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + PRINCIPAL, "-validity", "2", "-storetype", "PKCS12",
                "-keystore", dir.resolve("client.p12").toString(), "-storepass", password, "-keypass", password));
        for (String alias : List.of("broker", "client")) {
            Path cert = dir.resolve(alias + ".crt");
            keytool("export " + alias, List.of("-exportcert", "-rfc", "-alias", alias, "-keystore",
                    dir.resolve(alias + ".p12").toString(), "-storepass", password, "-file", cert.toString()));
            keytool("trust " + alias, List.of("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(),
                    "-storetype", "PKCS12", "-keystore", trustStore().toString(), "-storepass", password));
        }
    }

    private void keytool(String what, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(args);
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool (" + what + ") failed: " + output);
        }
    }

    private void run(String name, List<String> args) throws IOException, InterruptedException {
        ManagedProcess process = ManagedProcess.start(name, dir.resolve(name + ".log"), ManagedProcess.lightJvm("128m"), args);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        process.close();
    }

    private Path writeConfig() throws IOException {
        String keyStore = dir.resolve("broker.p12").toString();
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.voters", "1@127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + plaintextPort + ",SASL_SSL://127.0.0.1:" + saslSslPort
                        + ",SSL://127.0.0.1:" + sslPort + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + plaintextPort + ",SASL_SSL://127.0.0.1:"
                        + saslSslPort + ",SSL://127.0.0.1:" + sslPort),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL,CONTROLLER:PLAINTEXT"),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
                Map.entry("allow.everyone.if.no.acl.found", "false"),
                Map.entry("super.users", "User:ANONYMOUS"),
                Map.entry("sasl.enabled.mechanisms", "SCRAM-SHA-512"),
                Map.entry("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;"),
                Map.entry("listener.name.ssl.ssl.client.auth", "required"),
                Map.entry("ssl.principal.mapping.rules", "RULE:^CN=([^,]+)$/$1/,DEFAULT"),
                Map.entry("ssl.keystore.location", keyStore),
                Map.entry("ssl.keystore.password", password),
                Map.entry("ssl.keystore.type", "PKCS12"),
                Map.entry("ssl.key.password", password),
                Map.entry("ssl.truststore.location", trustStore().toString()),
                Map.entry("ssl.truststore.password", password),
                Map.entry("ssl.truststore.type", "PKCS12"),
                Map.entry("log.dirs", dir.resolve("log").toAbsolutePath().toString()),
                Map.entry("num.partitions", "1"),
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("default.replication.factor", "1"),
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "4"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("transaction.state.log.num.partitions", "4"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0")));
        Path file = dir.resolve("broker.properties");
        try (Writer writer = Files.newBufferedWriter(file)) {
            props.store(writer, "secured broker");
        }
        return file;
    }

    private void awaitBroker(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plaintextBootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000))) {
            while (System.nanoTime() < deadline) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    last = e;
                }
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("the secured broker did not answer within " + timeout
                + (last == null ? "" : ": " + last) + "; see " + dir.resolve("broker.log"), last);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (node != null) {
            node.close();
        }
    }
}
