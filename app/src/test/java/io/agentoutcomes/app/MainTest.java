package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.cli.ConfigOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void runHelpListsTheConfigurationFlags() {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--bootstrap-servers", "--schema-registry-url", "--data-dir", "--config",
                "--property=KEY=VALUE", "--http-port");
    }

    @Test
    void aMalformedFlagIsAUsageError() {
        assertThat(run("run", "--http-port", "eighty")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--http-port': 'eighty' is not an int");
    }

    @Test
    void anInvalidSettingStopsTheRunWithItsReason() {
        assertThat(run("run", "-p", "topic.replication.factor=0")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("agent-outcomes: topic.replication.factor must be -1 (broker default) "
                + "or at least 1, was 0" + System.lineSeparator());
    }

    @Test
    void aConfluentSerdeSettingTheServiceDoesNotHonourStopsTheRunWithItsNameAndWhy() {
        assertThat(run("run", "-p", "value.subject.name.strategy=io.confluent.kafka.serializers.subject.RecordNameStrategy"))
                .isEqualTo(1);
        assertThat(err.toString()).isEqualTo("agent-outcomes: Confluent serde settings this service does not honour "
                + "(remove them; docs/schemas.md): value.subject.name.strategy: subjects are always <topic>-key / "
                + "<topic>-value (Confluent's TopicNameStrategy)" + System.lineSeparator());
    }

    /** Listening on every interface without credentials or a keystore: no data answers anyone, the service does not start. */
    @Test
    void listeningBeyondLoopbackWithoutCredentialsOrAKeystoreRefusesToStartNamingTheSettings() {
        assertThat(run("run", "--http-host", "0.0.0.0", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "http://127.0.0.1:1", "-p", "default.api.timeout.ms=2000",
                "-p", "request.timeout.ms=1000")).isEqualTo(1);

        assertThat(err.toString()).isEqualTo("agent-outcomes: Refusing to start: http.host=0.0.0.0 listens beyond loopback, "
                + "so the HTTP API and the embedded registry require credentials: set http.auth.bearer.token and/or "
                + "http.auth.basic.user.info (AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN, AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO), "
                + "or http.auth.enabled=false to answer anyone who reaches them; http.host=0.0.0.0 listens beyond loopback, "
                + "so the HTTP API and the embedded registry speak HTTPS: set http.tls.keystore.location and "
                + "http.tls.keystore.password (AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_LOCATION, AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD), "
                + "or http.tls.enabled=false for plain HTTP (behind a proxy that terminates TLS)" + System.lineSeparator());
    }

    @Test
    void fleetTakesClientAndRegistrySettingsFromAFileSoSecretsStayOffTheCommandLine(@TempDir
            Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "basic.auth.user.info=fleet:f1le-pa55\nsecurity.protocol=SASL_SSL\n"
                + "schema.registry.ssl.truststore.location=/etc/trust.p12\n");
        FleetCommand fleet = new FleetCommand();
        new CommandLine(fleet).parseArgs("--config", file.toString(), "-p", "security.protocol=SSL",
                "--schema-registry-url", "https://registry:8081");

        assertThat(fleet.clientSettings()).containsEntry("basic.auth.user.info", "fleet:f1le-pa55")
                .containsEntry("security.protocol", "SSL").containsEntry("schema.registry.url", "https://registry:8081")
                .containsEntry("schema.registry.ssl.truststore.location", "/etc/trust.p12")
                .containsEntry("bootstrap.servers", "localhost:9092");
    }

    @Test
    void everyFlagOfTheSettingsTableSetsItsSetting() {
        Map<String, String> values = Map.of("--bootstrap-servers", "broker:9092", "--schema-registry-url", "http://registry:8081",
                "--application-id", "app-x", "--topic-prefix", "p-", "--partitions", "3", "--data-dir", "d",
                "--http-host", "0.0.0.0", "--http-port", "9999", "--log-format", "json");
        ConfigOptions.FLAGS.forEach((setting, flag) -> {
            ConfigOptions options = new ConfigOptions();
            new CommandLine(options).parseArgs(flag, values.get(flag));

            assertThat(options.flagSettings()).as(flag).containsExactly(Map.entry(setting, values.get(flag)));
        });
        assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(ConfigOptions.FLAGS.values());
    }
}
