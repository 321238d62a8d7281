package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.registry.CompatibilityLevel;
import io.agentoutcomes.avro.registry.RegisteredSchema;
import io.agentoutcomes.avro.registry.SchemaRegistryState;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry's REST API as clients use it, answer by answer (state in memory; the Kafka store has its own test). */
class SchemaRegistryServerTest {
    private static final String V1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
    private static final String V2 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"},"
            + "{\"name\":\"b\",\"type\":[\"null\",\"int\"],\"default\":null}]}";
    private static final String V2_BREAKING = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}";

    private final HttpClient http = HttpClient.newHttpClient();
    private SchemaRegistryServer server;

    /** The registry's rules without persistence. */
    private static final class InMemoryStore implements SchemaStore {
        private final SchemaRegistryState state = new SchemaRegistryState();

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
    }

    @BeforeEach
    void start() throws IOException {
        server = new SchemaRegistryServer(new InMemoryStore(), "127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /**
     * Issue 29 item 5: an answer's body is not held back for the client's delayed ACK of its headers (40 ms or more on
     * Linux with Nagle's algorithm on): the service's ~20 registrations at start took ~50 ms each before.
     */
    @Test
    void twentyRegistrationsOnOneConnectionTakeLessThanADelayedAckEach() throws Exception {
        post("/subjects/orders-value/versions", body(V1));
        long begin = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertAnswer(post("/subjects/orders-value/versions", body(V1)), 200, "{\"id\":1}");
        }
        long elapsedMs = (System.nanoTime() - begin) / 1_000_000;
        assertThat(elapsedMs).as("ms for 20 registrations of a known schema").isLessThan(20 * 30);
    }

    @Test
    void registersWithOrWithoutSchemaTypeAndAnswersTheId() throws Exception {
        assertAnswer(post("/subjects/orders-value/versions", body(V1)), 200, "{\"id\":1}");
        assertAnswer(post("/subjects/orders-value/versions?normalize=false",
                "{\"schemaType\":\"AVRO\",\"schema\":" + quote(V1) + "}"), 200, "{\"id\":1}");
        assertAnswer(get("/subjects/orders-value/versions"), 200, "[1]");
    }

    @Test
    void theSameSchemaTextGetsTheSameIdInAnotherSubject() throws Exception {
        post("/subjects/a-value/versions", body(V1));
        post("/subjects/b-value/versions", body(V2));

        assertAnswer(post("/subjects/c-value/versions", body(V2)), 200, "{\"id\":2}");
        assertAnswer(get("/subjects"), 200, "[\"a-value\",\"b-value\",\"c-value\"]");
        assertAnswer(get("/schemas/ids/2/versions"), 200,
                "[{\"subject\":\"b-value\",\"version\":1},{\"subject\":\"c-value\",\"version\":1}]");
    }

    @Test
    void looksSchemasUpByIdIgnoringExtraParameters() throws Exception {
        post("/subjects/orders-value/versions", body(V1));

        assertAnswer(get("/schemas/ids/1?fetchMaxId=false&subject=orders-value"), 200, "{\"schema\":" + quote(V1) + "}");
        assertAnswer(get("/schemas/ids/1/schema"), 200, V1);
        assertAnswer(get("/schemas/ids/7"), 404, "{\"error_code\":40403,\"message\":\"Schema 7 not found\"}");
        assertAnswer(get("/schemas/types"), 200, "[\"AVRO\"]");
    }

    @Test
    void answersVersionsAndLookUps() throws Exception {
        post("/subjects/orders-value/versions", body(V1));
        post("/subjects/orders-value/versions", body(V2));
        String v2 = "{\"subject\":\"orders-value\",\"version\":2,\"id\":2,\"schema\":" + quote(V2) + "}";

        assertAnswer(get("/subjects/orders-value/versions/latest"), 200, v2);
        assertAnswer(get("/subjects/orders-value/versions/2"), 200, v2);
        assertAnswer(post("/subjects/orders-value", body(V2)), 200, v2);
        assertAnswer(get("/subjects/orders-value/versions/1/schema"), 200, V1);
        assertAnswer(get("/subjects/orders-value/versions/3"), 404,
                "{\"error_code\":40402,\"message\":\"Version 3 not found for subject 'orders-value'.\"}");
        assertAnswer(get("/subjects/other-value/versions/latest"), 404,
                "{\"error_code\":40401,\"message\":\"Subject 'other-value' not found.\"}");
        assertAnswer(post("/subjects/other-value", body(V1)), 404,
                "{\"error_code\":40401,\"message\":\"Subject 'other-value' not found.\"}");
        assertAnswer(post("/subjects/orders-value", body("{\"type\":\"string\"}")), 404,
                "{\"error_code\":40403,\"message\":\"Schema not found under subject 'orders-value'.\"}");
    }

    @Test
    void refusesIncompatibleAndInvalidSchemasWithConfluentsErrors() throws Exception {
        post("/subjects/orders-value/versions", body(V1));

        HttpResponse<String> incompatible = post("/subjects/orders-value/versions", body(V2_BREAKING));
        assertThat(incompatible.statusCode()).isEqualTo(409);
        assertThat(incompatible.body()).startsWith("{\"error_code\":409,\"message\":\"Schema being registered is "
                + "incompatible with an earlier schema for subject 'orders-value'");
        HttpResponse<String> invalid = post("/subjects/orders-value/versions", body("{\"type\":\"nope\"}"));
        assertThat(invalid.statusCode()).isEqualTo(422);
        assertThat(invalid.body()).startsWith("{\"error_code\":42201,\"message\":\"Invalid schema:");
        assertAnswer(post("/subjects/orders-value/versions", "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax\"}"), 422,
                "{\"error_code\":42201,\"message\":\"Schema type PROTOBUF is not supported: this registry keeps Avro schemas only\"}");
        assertAnswer(post("/subjects/orders-value/versions", "not json"), 400,
                "{\"error_code\":400,\"message\":\"The request body is not valid JSON: Unrecognized token 'not': was "
                        + "expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')\"}");
    }

    @Test
    void checksCompatibilityWithAvrosOwnRules() throws Exception {
        post("/subjects/orders-value/versions", body(V1));

        assertAnswer(post("/compatibility/subjects/orders-value/versions/latest", body(V2)), 200, "{\"is_compatible\":true}");
        assertAnswer(post("/compatibility/subjects/orders-value/versions/1", body(V2_BREAKING)), 200,
                "{\"is_compatible\":false}");
        HttpResponse<String> verbose = post("/compatibility/subjects/orders-value/versions/1?verbose=true", body(V2_BREAKING));
        assertThat(verbose.body()).startsWith("{\"is_compatible\":false,\"messages\":[\"reading version 1: READER_FIELD_MISSING_DEFAULT_VALUE");
    }

    @Test
    void keepsGlobalAndSubjectCompatibilityLevels() throws Exception {
        assertAnswer(get("/config"), 200, "{\"compatibilityLevel\":\"BACKWARD\"}");
        assertAnswer(get("/config/orders-value"), 404, "{\"error_code\":40408,\"message\":\"Subject 'orders-value' "
                + "does not have subject-level compatibility configured\"}");
        assertAnswer(get("/config/orders-value?defaultToGlobal=true"), 200, "{\"compatibilityLevel\":\"BACKWARD\"}");

        assertAnswer(put("/config/orders-value", "{\"compatibility\":\"NONE\"}"), 200, "{\"compatibility\":\"NONE\"}");
        assertAnswer(put("/config", "{\"compatibility\":\"full_transitive\"}"), 200, "{\"compatibility\":\"FULL_TRANSITIVE\"}");
        assertAnswer(put("/config", "{\"compatibility\":\"SIDEWAYS\"}"), 422,
                "{\"error_code\":42203,\"message\":\"Invalid compatibility level: SIDEWAYS\"}");

        assertAnswer(get("/config/orders-value"), 200, "{\"compatibilityLevel\":\"NONE\"}");
        assertAnswer(get("/config"), 200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        post("/subjects/orders-value/versions", body(V1));
        assertAnswer(post("/subjects/orders-value/versions", body(V2_BREAKING)), 200, "{\"id\":2}");
    }

    @Test
    void unknownPathsAndAssociationsAnswerAJson404() throws Exception {
        assertAnswer(get("/associations/resources/-/orders?resourceType=topic&associationType=value"), 404,
                "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");
        assertAnswer(get("/nothing/here"), 404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");
        assertAnswer(get("/"), 200, "{}");
    }

    private void assertAnswer(HttpResponse<String> response, int status, String body) {
        assertThat(response.statusCode()).as(response.uri() + " status").isEqualTo(status);
        assertThat(response.body()).as(response.uri() + " body").isEqualTo(body);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/vnd.schemaregistry.v1+json");
    }

    private static String body(String schema) {
        return "{\"schema\":" + quote(schema) + "}";
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json"));
    }

    private HttpResponse<String> put(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json"));
    }

    private URI uri(String path) {
        return URI.create(server.url() + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
