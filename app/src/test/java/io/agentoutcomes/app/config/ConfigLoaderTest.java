package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    @Test
    void withNothingConfiguredEverythingIsEmbeddedOnTheDocumentedDefaults() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of());

        assertThat(config.embeddedKafka()).isTrue();
        assertThat(config.embeddedRegistry()).isTrue();
        assertThat(config.applicationId()).isEqualTo("agent-outcomes");
        assertThat(config.topicPrefix()).isEmpty();
        assertThat(config.partitions()).isEqualTo(4);
        assertThat(config.replicationFactor()).isEqualTo((short) -1);
        assertThat(config.dataDir()).isEqualTo(Path.of("data"));
        assertThat(config.httpHost()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(8080);
        assertThat(config.embeddedKafkaPort()).isEqualTo(9092);
        assertThat(config.embeddedRegistryPort()).isEqualTo(8081);
        assertThat(config.kafka()).isEmpty();
    }

    @Test
    void flagsOverrideTheEnvironmentWhichOverridesTheFile() throws IOException {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "bootstrap.servers=file:9092\ntopic.partitions=8\napplication.id=from-file\n"
                + "security.protocol=SASL_SSL\n");
        Map<String, String> env = Map.of("AGENT_OUTCOMES_TOPIC_PARTITIONS", "6", "AGENT_OUTCOMES_APPLICATION_ID", "from-env",
                "AGENT_OUTCOMES_NUM_STREAM_THREADS", "2", "HOME", "/root");

        AppConfig config = ConfigLoader.load(Optional.of(file), env, Map.of("application.id", "from-flag"));

        assertThat(config.bootstrapServers()).hasValue("file:9092");
        assertThat(config.partitions()).isEqualTo(6);
        assertThat(config.applicationId()).isEqualTo("from-flag");
        assertThat(config.kafka()).containsExactlyInAnyOrderEntriesOf(
                Map.of("security.protocol", "SASL_SSL", "num.stream.threads", "2"));
    }

    @Test
    void secretsNeverShowInTheConfigurationsText() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"s3cr3t\";",
                "ssl.truststore.password", "s3cr3t", "basic.auth.user.info", "user:s3cr3t",
                "schema.registry.url", "https://user:s3cr3t@registry.example:8081", "client.id", "visible"));

        assertThat(config.toString()).doesNotContain("s3cr3t").contains("client.id=visible")
                .contains("sasl.jaas.config=[hidden]").contains("https://[hidden]@registry.example:8081");
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.port", "eighty")))
                .isInstanceOf(ConfigLoader.ConfigError.class).hasMessage("http.port must be a whole number, was 'eighty'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.port", "70000")))
                .hasMessage("http.port must be a port between 0 and 65535, was 70000");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("topic.replication.factor", "0")))
                .hasMessage("topic.replication.factor must be -1 (broker default) or at least 1, was 0");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.of(dir.resolve("missing.properties")), Map.of(), Map.of()))
                .hasMessageStartingWith("Cannot read the configuration file");
    }

    @Test
    void theRegistryRequestBoundIsOneMebibyteUnlessSetAndNeverPassedToKafka() {
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).embeddedRegistryMaxRequestBytes()).isEqualTo(1048576);
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("embedded.registry.max.request.bytes", "2048"));

        assertThat(config.embeddedRegistryMaxRequestBytes()).isEqualTo(2048);
        assertThat(config.kafka()).doesNotContainKey("embedded.registry.max.request.bytes");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("embedded.registry.max.request.bytes", "100")))
                .hasMessage("embedded.registry.max.request.bytes must be at least 1024, was 100");
    }

    @Test
    void kafkaClientSettingsWithOneOfTheServicesPrefixesGoToKafka() {
        // Before the ConfigDef, every retry.* key was the service's, and Kafka's retry.backoff.ms was refused as unknown.
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("retry.backoff.ms", "500",
                "retry.backoff.max.ms", "2000"));

        assertThat(config.kafka()).containsExactlyInAnyOrderEntriesOf(Map.of("retry.backoff.ms", "500", "retry.backoff.max.ms", "2000"));
    }

    @Test
    void unknownSettingsWithTheServicesPrefixesAreRefusedNamingThem() {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.prot", "8080")))
                .isInstanceOf(ConfigLoader.ConfigError.class).hasMessage("Unknown setting http.prot (see docs/operations.md)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.enable", "false")))
                .hasMessage("Unknown setting analytics.enable (see docs/analytics.md)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.enabled", "maybe")))
                .hasMessage("analytics.enabled must be true or false, was 'maybe'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("log.format", "xml")))
                .hasMessage("log.format is 'xml': expected text or json");
    }

    @Test
    void secretsAreThePasswordsOfTheServicesAndKafkasConfigDefsAndUndeclaredSettingsAreNotShownEither() {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc-user\" password=\"pa55word\";";
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "sasl.jaas.config", jaas, "producer.ssl.key.password", "k3y-pass", "basic.auth.user.info", "reg:r3g-pass",
                "my.plugin.setting", "unknown-kind", "security.protocol", "SASL_SSL",
                "schema.registry.url", "https://reg:url-pass@registry.example:8081"));

        assertThat(config.kafkaForDisplay()).containsEntry("sasl.jaas.config", "[hidden]")
                .containsEntry("producer.ssl.key.password", "[hidden]").containsEntry("basic.auth.user.info", "[hidden]")
                .containsEntry("my.plugin.setting", "[hidden]").containsEntry("security.protocol", "SASL_SSL");
        assertThat(config.kafka()).containsEntry("basic.auth.user.info", "reg:r3g-pass");
        assertThat(config.secretValues()).contains(jaas, "k3y-pass", "reg:r3g-pass", "unknown-kind", "pa55word", "svc-user",
                "reg:url-pass").doesNotContain("SASL_SSL");
        assertThat(AgentOutcomesConfig.isSecret("ssl.truststore.password")).isTrue();
        assertThat(AgentOutcomesConfig.isSecret("main.consumer.sasl.jaas.config")).isTrue();
        assertThat(AgentOutcomesConfig.isSecret("client.id")).isFalse();
    }
}
