package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Request bodies are read up to a bound (1 MiB by default), with or without a Content-Length; beyond it, 413. */
class SchemaRegistryBodyLimitTest {
    private static final String TOO_LARGE = "{\"error_code\":413,\"message\":\"The request body is larger than 1048576 bytes\"}";

    private final HttpClient http = HttpClient.newHttpClient();
    private SchemaRegistryServer server;

    @BeforeEach
    void start() throws Exception {
        server = new SchemaRegistryServer(inMemoryStore(), "127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aBodyOverOneMebibyteWithContentLengthIs413() throws Exception {
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(registration(1024 * 1024 + 1)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).isEqualTo(TOO_LARGE);
    }

    @Test
    void aChunkedBodyOverOneMebibyteIs413() throws Exception {
        byte[] body = registration(1024 * 1024 + 1).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).isEqualTo(TOO_LARGE);
    }

    @Test
    void aBodyOfExactlyOneMebibyteIsRead() throws Exception {
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(registration(1024 * 1024)));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"id\":1}");
    }

    @Test
    void aConfiguredBoundIsHonoured() throws Exception {
        server.close();
        server = new SchemaRegistryServer(inMemoryStore(), "127.0.0.1", 0, "127.0.0.1", 2048);

        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(registration(2049)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).isEqualTo("{\"error_code\":413,\"message\":\"The request body is larger than 2048 bytes\"}");
    }

    @Test
    void aClientStillSendingALargeBodyReadsThe413() throws Exception {
        // Answered and closed before the body was read, the client's write met a reset and it never saw the answer.
        server.close();
        server = new SchemaRegistryServer(inMemoryStore(), "127.0.0.1", 0, "127.0.0.1", 2048);

        for (int attempt = 0; attempt < 5; attempt++) {
            HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(registration(3 * 1024 * 1024)));

            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(response.body()).isEqualTo("{\"error_code\":413,\"message\":\"The request body is larger than 2048 bytes\"}");
        }
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

    /** A valid registration, padded with whitespace to exactly {@code bytes} bytes. */
    private static String registration(int bytes) {
        String json = "{\"schema\":\"{\\\"type\\\":\\\"string\\\"}\"}";
        return json.substring(0, json.length() - 1) + " ".repeat(bytes - json.length()) + "}";
    }

    private HttpResponse<String> post(HttpRequest.BodyPublisher body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + "/subjects/s-value/versions")).POST(body)
                .header("Content-Type", "application/vnd.schemaregistry.v1+json").build(), HttpResponse.BodyHandlers.ofString());
    }
}
