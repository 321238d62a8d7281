package io.agentoutcomes.avro.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent Schema Registry REST API (also served by Karapace, Redpanda, Apicurio's compatible
 * endpoint and this project's embedded registry).
 *
 * <p>A registry that cannot be reached, or answers 5xx, is retried with exponential backoff over every URL given;
 * when the attempts are spent the call fails with {@link SchemaRegistryUnavailableException}. A 4xx answer is the
 * registry's verdict and fails at once with {@link SchemaRegistryException} carrying its {@code error_code}.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {
    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final Logger LOG = LoggerFactory.getLogger(RestSchemaRegistryClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<URI> baseUrls;
    private final Optional<String> authorization;
    private final RegistryCalls calls;
    private final HttpClient http;

    /**
     * @param baseUrls        registry URLs, tried in turn
     * @param basicAuthUserInfo {@code user:password} for HTTP basic authentication, if the registry wants it
     * @param requestTimeout  how long one request may take
     * @param maxAttempts     attempts per call when the registry is unreachable or answers 5xx (at least 1)
     * @param initialBackoff  the wait after the first failed attempt; doubled after each further one
     */
    public RestSchemaRegistryClient(List<URI> baseUrls, Optional<String> basicAuthUserInfo, Duration requestTimeout,
                                    int maxAttempts, Duration initialBackoff) {
        this(baseUrls, basicAuthUserInfo.map(RestSchemaRegistryClient::basicAuthorization), Optional.empty(),
                requestTimeout, maxAttempts, initialBackoff);
    }

    /**
     * @param authorization the {@code Authorization} header every request carries, if the registry wants one
     *                      ({@link #basicAuthorization}, {@link #bearerAuthorization})
     * @param sslContext    what HTTPS trusts; empty: the JVM's default trust store
     */
    public RestSchemaRegistryClient(List<URI> baseUrls, Optional<String> authorization, Optional<SSLContext> sslContext,
                                    Duration requestTimeout, int maxAttempts, Duration initialBackoff) {
        this(baseUrls, authorization, sslContext, new RegistryCalls(requestTimeout, requestTimeout, maxAttempts,
                initialBackoff, Duration.ofMillis(Long.MAX_VALUE)));
    }

    /**
     * @param authorization the {@code Authorization} header every request carries, if the registry wants one
     * @param sslContext    what HTTPS trusts and the client certificate it presents; empty: the JVM's defaults
     * @param calls         timeouts and retries
     */
    public RestSchemaRegistryClient(List<URI> baseUrls, Optional<String> authorization, Optional<SSLContext> sslContext,
                                    RegistryCalls calls) {
        if (baseUrls.isEmpty()) {
            throw new IllegalArgumentException("at least one schema registry URL is required");
        }
        this.baseUrls = List.copyOf(baseUrls);
        this.authorization = authorization;
        this.calls = calls;
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(calls.connectTimeout());
        sslContext.ifPresent(http::sslContext);
        this.http = http.build();
    }

    /** The {@code Authorization} header of HTTP basic authentication with {@code user:password}. */
    public static String basicAuthorization(String userInfo) {
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    /** The {@code Authorization} header that presents a bearer token. */
    public static String bearerAuthorization(String token) {
        return "Bearer " + token;
    }

    @Override
    public int register(String subject, String schema) {
        return send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema)).path("id").asInt();
    }

    @Override
    public int idOf(String subject, String schema) {
        return send("POST", "/subjects/" + encode(subject), schemaBody(schema)).path("id").asInt();
    }

    @Override
    public String schemaById(int id) {
        return send("GET", "/schemas/ids/" + id, null).path("schema").asText();
    }

    @Override
    public RegisteredSchema latest(String subject) {
        JsonNode answer = send("GET", "/subjects/" + encode(subject) + "/versions/latest", null);
        return new RegisteredSchema(answer.path("subject").asText(subject), answer.path("version").asInt(),
                answer.path("id").asInt(), answer.path("schema").asText());
    }

    @Override
    public String describe() {
        return baseUrls.toString();
    }

    private static String schemaBody(String schema) {
        ObjectNode body = JSON.createObjectNode();
        body.put("schema", schema);
        return body.toString();
    }

    private static String encode(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode send(String method, String path, String body) {
        int maxAttempts = calls.attempts();
        Exception lastFailure = null;
        for (int attempt = 0; attempt < maxAttempts; attempt++) {
            URI url = URI.create(stripSlash(baseUrls.get(attempt % baseUrls.size()).toString()) + path);
            try {
                HttpResponse<String> response = http.send(request(method, url, body), HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    return JSON.readTree(response.body());
                }
                SchemaRegistryException error = errorOf(status, response.body(), method, url);
                if (status < 500 && status != 408 && status != 429) {
                    throw error;
                }
                lastFailure = error;
            } catch (IOException e) {
                lastFailure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryUnavailableException("Interrupted while calling the schema registry at " + url, e);
            }
            if (attempt + 1 < maxAttempts) {
                Duration backoff = calls.backoff(attempt);
                LOG.warn("Schema registry call {} {} failed ({}); attempt {} of {}, retrying in {} ms", method, url,
                        lastFailure, attempt + 1, maxAttempts, backoff.toMillis());
                sleep(backoff);
            }
        }
        throw new SchemaRegistryUnavailableException("Schema registry at " + describe() + " did not answer " + method
                + " " + path + " after " + maxAttempts + " attempts: " + lastFailure, lastFailure);
    }

    private HttpRequest request(String method, URI url, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(calls.requestTimeout())
                .header("Accept", CONTENT_TYPE + ", application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", CONTENT_TYPE);
        }
        authorization.ifPresent(value -> request.header("Authorization", value));
        return request.build();
    }

    private static SchemaRegistryException errorOf(int status, String body, String method, URI url) {
        int errorCode = status;
        String message = body;
        try {
            JsonNode error = JSON.readTree(body);
            errorCode = error.path("error_code").asInt(status);
            message = error.path("message").asText(body);
        } catch (IOException | RuntimeException notJson) {
            // keep the raw body as the message
        }
        return new SchemaRegistryException(status, errorCode,
                "Schema registry answered " + status + " (error_code " + errorCode + ") to " + method + " " + url
                        + ": " + message);
    }

    private static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryUnavailableException("Interrupted while waiting to retry the schema registry", e);
        }
    }
}
