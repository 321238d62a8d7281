package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.http.HttpSecurity;
import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryException;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded registry with credentials configured: every write (and every other request that is not a read) is 401
 * without them, as Confluent's registry answers; with them, or for reads, the same answers as an open registry. The
 * project's own client presents them from Confluent's settings (basic.auth.user.info, a static bearer token).
 */
class SchemaRegistryAuthenticationTest {
    private static final String TOKEN = "registry-t0ken-0f-some-length";
    private static final String USER_INFO = "schemas:r3g-pa55";
    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
    private static final String REGISTRATION = "{\"schema\":" + quote(SCHEMA) + "}";

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<SchemaRegistryServer> servers = new ArrayList<>();

    /** The writes and the non-read requests of the REST API, with their bodies. */
    private static final List<String[]> WRITES = List.of(
            new String[] {"POST", "/subjects/orders-value/versions", REGISTRATION},
            new String[] {"POST", "/subjects/orders-value/versions?normalize=false", REGISTRATION},
            new String[] {"PUT", "/config", "{\"compatibility\":\"NONE\"}"},
            new String[] {"PUT", "/config/orders-value", "{\"compatibility\":\"FULL\"}"},
            new String[] {"POST", "/subjects/orders-value", REGISTRATION},
            new String[] {"POST", "/compatibility/subjects/orders-value/versions/latest", REGISTRATION},
            new String[] {"DELETE", "/subjects/orders-value", ""},
            new String[] {"DELETE", "/subjects/orders-value/versions/1", ""});
    private static final List<String> READS = List.of("/subjects", "/subjects/orders-value/versions",
            "/subjects/orders-value/versions/latest", "/schemas/ids/1", "/schemas/types", "/config", "/config/orders-value", "/");

    private SchemaRegistryServer registry(Map<String, String> settings) throws Exception {
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), settings).httpSecurity();
        SchemaRegistryServer server = new SchemaRegistryServer(inMemoryStore(), "127.0.0.1", 0, "127.0.0.1",
                SchemaRegistryServer.DEFAULT_MAX_REQUEST_BYTES, security);
        servers.add(server);
        return server;
    }

    private SchemaRegistryServer guarded() throws Exception {
        return registry(Map.of("http.auth.bearer.token", TOKEN, "http.auth.basic.user.info", USER_INFO));
    }

    @AfterEach
    void stop() {
        servers.forEach(SchemaRegistryServer::close);
    }

    @Test
    void withoutCredentialsEveryWriteIs401AndNothingChanges() throws Exception {
        SchemaRegistryServer guarded = guarded();

        for (String[] write : WRITES) {
            HttpResponse<String> answer = send(guarded, write[0], write[1], write[2], Optional.empty());

            assertThat(answer.statusCode()).as("%s %s without credentials", write[0], write[1]).isEqualTo(401);
            assertThat(answer.body()).startsWith("{\"error_code\":401,\"message\":\"Unauthorized: ");
            assertThat(answer.headers().allValues("WWW-Authenticate"))
                    .containsExactly("Basic realm=\"agent-outcomes\", charset=\"UTF-8\"", "Bearer realm=\"agent-outcomes\"");
            assertThat(send(guarded, write[0], write[1], write[2], Optional.of("Basic " + base64("schemas:wrong")))
                    .statusCode()).as("%s %s with wrong credentials", write[0], write[1]).isEqualTo(401);
        }
        assertThat(send(guarded, "GET", "/subjects", "", Optional.empty()).body()).isEqualTo("[]");
        assertThat(send(guarded, "GET", "/config", "", Optional.empty()).body()).isEqualTo("{\"compatibilityLevel\":\"BACKWARD\"}");
    }

    @Test
    void withCredentialsWritesAndReadsAnswerAsAnOpenRegistryDoes() throws Exception {
        SchemaRegistryServer open = registry(Map.of());
        SchemaRegistryServer guarded = guarded();
        Optional<String> bearer = Optional.of("Bearer " + TOKEN);
        Optional<String> basic = Optional.of("Basic " + base64(USER_INFO));

        for (String[] write : WRITES) {
            HttpResponse<String> expected = send(open, write[0], write[1], write[2], Optional.empty());
            HttpResponse<String> answer = send(guarded, write[0], write[1], write[2], write[1].contains("config") ? basic : bearer);

            assertThat(answer.statusCode()).as("%s %s", write[0], write[1]).isEqualTo(expected.statusCode());
            assertThat(answer.body()).as("%s %s", write[0], write[1]).isEqualTo(expected.body());
        }
        for (String read : READS) {
            HttpResponse<String> expected = send(open, "GET", read, "", Optional.empty());
            HttpResponse<String> answer = send(guarded, "GET", read, "", Optional.empty());

            assertThat(answer.statusCode()).as("GET %s without credentials", read).isEqualTo(expected.statusCode());
            assertThat(answer.body()).as("GET %s", read).isEqualTo(expected.body());
        }
    }

    @Test
    void theProjectsClientPresentsBasicOrBearerCredentialsFromConfluentsSettings() throws Exception {
        SchemaRegistryServer guarded = guarded();
        Map<String, Object> basic = new HashMap<>(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, guarded.url(),
                AvroSerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO", AvroSerdeConfig.BASIC_AUTH_USER_INFO, USER_INFO));
        Map<String, Object> bearer = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, guarded.url(),
                AvroSerdeConfig.BEARER_AUTH_CREDENTIALS_SOURCE, "STATIC_TOKEN", AvroSerdeConfig.BEARER_AUTH_TOKEN, TOKEN);
        Map<String, Object> none = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, guarded.url(),
                AvroSerdeConfig.REQUEST_ATTEMPTS, "1");

        int id = client(basic).register("orders-value", SCHEMA);
        assertThat(client(bearer).register("other-value", SCHEMA)).isEqualTo(id);
        assertThat(client(none).schemaById(id)).isEqualTo(SCHEMA);
        assertThatThrownBy(() -> client(none).register("third-value", SCHEMA))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThat(AvroSerdeConfig.from(bearer).toString()).doesNotContain(TOKEN);
        assertThat(AvroSerdeConfig.from(basic).toString()).doesNotContain("r3g-pa55");
    }

    private static SchemaRegistryClient client(Map<String, Object> settings) {
        return AvroSerdeConfig.from(settings).newClient();
    }

    private HttpResponse<String> send(SchemaRegistryServer server, String method, String path, String body,
                                      Optional<String> authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        authorization.ifPresent(value -> request.header("Authorization", value));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
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
