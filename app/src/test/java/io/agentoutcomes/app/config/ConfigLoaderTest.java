package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.Dimension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
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
                .isInstanceOf(ConfigError.class).hasMessage("http.port must be a whole number, was 'eighty'");
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
                .isInstanceOf(ConfigError.class).hasMessage("Unknown setting http.prot (see docs/operations.md)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.enable", "false")))
                .hasMessage("Unknown setting analytics.enable (see docs/analytics.md)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.enabled", "maybe")))
                .hasMessage("analytics.enabled must be true or false, was 'maybe'");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("log.format", "xml")))
                .hasMessage("log.format is 'xml': expected text or json");
    }

    @Test
    void theHttpCredentialsAndKeystorePasswordsAreSecretsNeverShown() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of("AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN", "t0ken-xyz-123",
                "AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO", "ops:basic-pa55"), Map.of("http.host", "0.0.0.0",
                "http.tls.keystore.location", "/etc/agent-outcomes/http.p12", "http.tls.keystore.password", "st0re-pa55",
                "http.tls.key.password", "k3y-pa55", "http.tls.truststore.location", "/etc/trust.p12",
                "http.tls.truststore.password", "tru5t-pa55"));

        assertThat(config.toString()).contains("http=0.0.0.0:8080 (auth=required[bearer, basic], tls=on "
                + "(/etc/agent-outcomes/http.p12 (PKCS12)))").doesNotContain("t0ken-xyz-123", "basic-pa55", "st0re-pa55",
                "k3y-pa55", "tru5t-pa55");
        assertThat(config.secretValues()).contains("t0ken-xyz-123", "ops:basic-pa55", "basic-pa55", "st0re-pa55", "k3y-pa55",
                "tru5t-pa55", Base64.getEncoder().encodeToString("ops:basic-pa55".getBytes(StandardCharsets.UTF_8)));
        assertThat(config.kafka()).isEmpty();
        for (String name : List.of("http.auth.bearer.token", "http.auth.basic.user.info", "http.tls.keystore.password",
                "http.tls.key.password", "http.tls.truststore.password")) {
            assertThat(AgentOutcomesConfig.isSecret(name)).as(name).isTrue();
        }
        assertThat(config.httpSecurity().problems()).isEmpty();
    }

    @Test
    void credentialsAndTlsAreRequiredByDefaultOnlyBeyondLoopbackAndAnEmptyValueIsNotSet() {
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).httpSecurity().toString()).isEqualTo("auth=off, tls=off");
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.host", "localhost")).httpSecurity().problems()).isEmpty();
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.host", "0.0.0.0")).httpSecurity().problems())
                .hasSize(2);
        HttpSecurity emptyCredentials = ConfigLoader.load(Optional.empty(), Map.of("AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN", "",
                "AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO", ""), Map.of("http.host", "0.0.0.0", "http.tls.enabled", "false"))
                .httpSecurity();
        assertThat(emptyCredentials.hasCredentials()).isFalse();
        assertThat(emptyCredentials.problems()).singleElement().asString().startsWith("http.host=0.0.0.0 listens beyond loopback,");
        HttpSecurity optedOut = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.host", "0.0.0.0",
                "http.auth.enabled", "false", "http.tls.enabled", "false")).httpSecurity();
        assertThat(optedOut.problems()).isEmpty();
        assertThat(optedOut.authRequired()).isFalse();
        HttpSecurity onLoopbackWithToken = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.auth.bearer.token", "t"))
                .httpSecurity();
        assertThat(onLoopbackWithToken.authRequired()).isTrue();
        assertThat(onLoopbackWithToken.tls()).isFalse();
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.auth.enabled", "true")).httpSecurity().problems())
                .containsExactly("http.auth.enabled=true needs credentials: set http.auth.bearer.token and/or http.auth.basic.user.info "
                        + "(AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN, AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO)");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("http.auth.basic.user.info", "no-colon-s3cret")))
                .hasMessage("http.auth.basic.user.info must be user:password, both non-empty (the value is not shown)");
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

    @Test
    void analyticsDimensionsDefaultToTheCoreAndTenantAndAddOnlyWhatIsListed() {
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).pipeline().analytics().dimensions())
                .containsExactly(Dimension.AGENT, Dimension.MODEL, Dimension.PROVIDER, Dimension.TENANT);
        AnalyticsSettings settings = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "analytics.dimensions", "agent, model, provider, User, tag", "analytics.dimension.max.values", "50")).pipeline().analytics();
        assertThat(settings.dimensions())
                .containsExactly(Dimension.AGENT, Dimension.MODEL, Dimension.PROVIDER, Dimension.USER, Dimension.TAG);
        assertThat(settings.maxDimensionValues()).isEqualTo(50);
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.dimensions", "tenant")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("analytics.dimensions is not valid: agent, model and provider must be listed, was [tenant]");
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("analytics.dimensions",
                "agent,model,provider,region"))).isInstanceOf(ConfigError.class)
                .hasMessage("analytics.dimensions is not valid: no dimension region");
    }
}
