package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.TestCa;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import io.agentoutcomes.avro.registry.SchemaRegistryUnavailableException;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded registry with client-certificate authentication on ({@code embedded.registry.tls.client.auth=required}),
 * and a registry client presenting its certificate from {@code schema.registry.ssl.keystore.*}, as Confluent's does;
 * the keys and certificates are signed by a CA made in the test.
 */
class RegistryClientCertificateTest {
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}";

    @TempDir
    Path dir;

    private TestCa ca;
    private SchemaRegistryServer registry;

    @BeforeEach
    void start() throws Exception {
        ca = TestCa.create(dir, "fleet");
        Path serverKeystore = ca.issue("localhost", true);
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "http.tls.keystore.location", serverKeystore.toString(), "http.tls.keystore.password", ca.password(),
                "http.tls.truststore.location", ca.truststore().toString(), "http.tls.truststore.password", ca.password(),
                "embedded.registry.tls.client.auth", "required")).httpSecurity();
        registry = new SchemaRegistryServer(inMemoryStore(), "127.0.0.1", 0, "127.0.0.1",
                SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES, security);
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    @Test
    void aClientPresentingACertificateTheCaSignedRegistersAndReadsSchemas() throws Exception {
        Map<String, String> settings = trusting();
        settings.put("schema.registry.ssl.keystore.location", ca.issue("agent-outcomes-client", false).toString());
        settings.put("schema.registry.ssl.keystore.password", ca.password());
        settings.put("schema.registry.ssl.keystore.type", "PKCS12");
        settings.put("schema.registry.ssl.key.password", ca.password());
        SchemaRegistryClient client = AvroSerdeConfig.from(settings).newClient();

        int id = client.register("orders-value", SCHEMA);

        assertThat(id).isEqualTo(1);
        assertThat(client.schemaById(id)).isEqualTo(SCHEMA);
    }

    @Test
    void aClientWithoutACertificateIsRefused() {
        SchemaRegistryClient client = AvroSerdeConfig.from(trusting()).newClient();

        assertThatThrownBy(() -> client.register("orders-value", SCHEMA))
                .isInstanceOf(SchemaRegistryUnavailableException.class)
                .hasMessageContaining("after 1 attempts")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void aClientWhoseCertificateAnotherCaSignedIsRefused() throws Exception {
        TestCa stranger = TestCa.create(dir, "stranger");
        Map<String, String> settings = trusting();
        settings.put("schema.registry.ssl.keystore.location", stranger.issue("intruder", false).toString());
        settings.put("schema.registry.ssl.keystore.password", stranger.password());
        SchemaRegistryClient client = AvroSerdeConfig.from(settings).newClient();

        assertThatThrownBy(() -> client.register("orders-value", SCHEMA))
                .isInstanceOf(SchemaRegistryUnavailableException.class)
                .hasMessageContaining("after 1 attempts");
    }

    @Test
    void requiringClientCertificatesWithoutATrustStoreIsRefusedByName() {
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                "http.tls.keystore.location", "server.p12", "embedded.registry.tls.client.auth", "required")).httpSecurity();

        assertThat(security.problems()).containsExactly("embedded.registry.tls.client.auth=required needs HTTPS and the "
                + "certificates it accepts: set http.tls.keystore.location and http.tls.truststore.location (the CA that "
                + "signed the clients' certificates)");
    }

    /** The serde settings of a client that trusts the CA, one attempt per call. */
    private Map<String, String> trusting() {
        Map<String, String> settings = new HashMap<>();
        settings.put("schema.registry.url", registry.url());
        settings.put("schema.registry.ssl.truststore.location", ca.truststore().toString());
        settings.put("schema.registry.ssl.truststore.password", ca.password());
        settings.put("schema.registry.request.attempts", "1");
        return settings;
    }

    private static SchemaStore inMemoryStore() {
        SchemaRegistryState state = new SchemaRegistryState();
        return new SchemaStore() {
            @Override
            public SchemaRegistryState state() {
                return state;
            }

            @Override
            public RegisteredSchema register(String subject, String schemaText) {
                return state.register(subject, schemaText);
            }

            @Override
            public void setCompatibility(String subject, CompatibilityLevel level) {
                state.setCompatibility(subject, level);
            }
        };
    }
}
