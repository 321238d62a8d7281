package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ${file:path:key}} and {@code ${directory:path:file}} through Kafka's config providers, for every setting. */
class ConfigProvidersTest {
    @TempDir
    Path dir;

    @Test
    void aFileProviderSuppliesTheServicesTheRegistrysAndKafkasSecretsFromAMountedFile() throws Exception {
        Path secrets = dir.resolve("secrets.properties");
        Files.writeString(secrets, "registry=fleet:r3gistry-secret\ntoken=api-t0ken\n"
                + "jaas=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc\" password=\"k4fka\";\n");
        Map<String, String> settings = new HashMap<>(Map.of("config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
                "basic.auth.user.info", "${file:" + secrets + ":registry}",
                "http.auth.bearer.token", "${file:" + secrets + ":token}",
                "sasl.jaas.config", "${file:" + secrets + ":jaas}"));

        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), settings);

        assertThat(config.kafka()).containsEntry("basic.auth.user.info", "fleet:r3gistry-secret")
                .containsEntry("sasl.jaas.config",
                        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc\" password=\"k4fka\";");
        assertThat(config.httpSecurity().bearerToken()).contains("api-t0ken");
        Map<String, Object> serde = new HashMap<>(config.kafka());
        serde.put("schema.registry.url", "http://registry:8081");
        assertThat(AvroSerdeConfig.from(serde).authorization())
                .contains("Basic " + Base64.getEncoder().encodeToString("fleet:r3gistry-secret".getBytes(StandardCharsets.UTF_8)));
        assertThat(config.secretValues()).contains("fleet:r3gistry-secret", "api-t0ken", "k4fka");
        assertThat(config.toString()).doesNotContain("r3gistry-secret").doesNotContain("k4fka");
    }

    @Test
    void aDirectoryProviderReadsAKubernetesSecretMountedAsFiles() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("registry-secret"));
        Files.writeString(mount.resolve("user-info"), "fleet:m0unted");
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("config.providers", "dir",
                "config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider",
                "basic.auth.user.info", "${dir:" + mount + ":user-info}"));

        assertThat(config.kafka()).containsEntry("basic.auth.user.info", "fleet:m0unted");
    }

    @Test
    void aKeyTheProviderDoesNotHaveLeavesThePlaceholderWhichItsSettingRefuses() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("empty-secret"));
        String placeholder = "${dir:" + mount + ":partitions}";

        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("config.providers", "dir",
                "config.providers.dir.class", "org.apache.kafka.common.config.provider.DirectoryConfigProvider",
                "topic.partitions", placeholder)))
                .isInstanceOf(ConfigError.class)
                .hasMessage("topic.partitions must be a whole number, was '" + placeholder + "'");
    }

    @Test
    void aServiceSettingOfAnotherTypeIsParsedAfterItsValueIsProvided() throws Exception {
        Path values = dir.resolve("values.properties");
        Files.writeString(values, "partitions=12\n");
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
                "topic.partitions", "${file:" + values + ":partitions}"));

        assertThat(config.partitions()).isEqualTo(12);
    }

    @Test
    void withoutConfigProvidersAPlaceholderIsLeftAsItIs() {
        AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of("basic.auth.user.info", "${file:/x:y}"));

        assertThat(config.kafka()).containsEntry("basic.auth.user.info", "${file:/x:y}");
    }

    @Test
    void anUnknownProviderClassIsRefusedNamingConfigProviders() {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of("config.providers", "vault",
                "config.providers.vault.class", "com.example.NoSuchProvider", "basic.auth.user.info", "${vault:a:b}")))
                .isInstanceOf(ConfigError.class)
                .hasMessageStartingWith("config.providers: ");
    }
}
