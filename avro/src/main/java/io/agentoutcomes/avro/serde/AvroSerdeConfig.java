package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.registry.CachingSchemaRegistryClient;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.registry.RegistryTrustStore;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The serde's settings, under the names Confluent's serializers use, parsed once from a Kafka config map.
 *
 * @param registryUrls       {@code schema.registry.url}: comma-separated registry URLs, or {@code mock://scope}
 * @param autoRegister       {@code auto.register.schemas}: register the writer's schema (default true)
 * @param useLatestVersion   {@code use.latest.version}: write with the subject's latest schema (default false)
 * @param basicAuthUserInfo  {@code basic.auth.user.info} ({@code user:password}), or credentials in the URL
 * @param bearerAuthToken    {@code bearer.auth.token}, with {@code bearer.auth.credentials.source=STATIC_TOKEN}: sent
 *                           instead of basic credentials
 * @param trustStore         {@code schema.registry.ssl.truststore.location}, {@code .password}, {@code .type}: what
 *                           HTTPS trusts; not set: the JVM's default trust store
 * @param specificReader     {@code specific.avro.reader}: decode to generated classes (default false)
 * @param latestCacheTtl     {@code latest.cache.ttl.sec}: how long a subject's latest version is kept (-1: always)
 * @param requestTimeout     {@code schema.registry.request.timeout.ms} (default 10 000)
 * @param requestAttempts    {@code schema.registry.request.attempts}: tries per call while unreachable (default 6)
 * @param retryBackoff       {@code schema.registry.retry.backoff.ms}: first wait between tries, doubled each time (default 200)
 */
public record AvroSerdeConfig(
        List<String> registryUrls,
        boolean autoRegister,
        boolean useLatestVersion,
        Optional<String> basicAuthUserInfo,
        Optional<String> bearerAuthToken,
        Optional<RegistryTrustStore> trustStore,
        boolean specificReader,
        Duration latestCacheTtl,
        Duration requestTimeout,
        int requestAttempts,
        Duration retryBackoff) {

    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    public static final String USE_LATEST_VERSION = "use.latest.version";
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String BEARER_AUTH_CREDENTIALS_SOURCE = "bearer.auth.credentials.source";
    public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
    public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";
    public static final String LATEST_CACHE_TTL_SEC = "latest.cache.ttl.sec";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String REQUEST_ATTEMPTS = "schema.registry.request.attempts";
    public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";

    /** Parses the serde settings from a Kafka config map; {@code schema.registry.url} is required. */
    public static AvroSerdeConfig from(Map<String, ?> configs) {
        Object url = configs.get(SCHEMA_REGISTRY_URL);
        if (url == null || url.toString().isBlank()) {
            throw new ConfigException("Missing required configuration \"" + SCHEMA_REGISTRY_URL
                    + "\": the URL of a Confluent-compatible schema registry (or mock://<scope> in tests)");
        }
        List<String> urls = new ArrayList<>();
        Optional<String> urlUserInfo = Optional.empty();
        for (String raw : Arrays.stream(url.toString().split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList()) {
            if (raw.startsWith(MockSchemaRegistry.MOCK_URL_PREFIX)) {
                urls.add(raw);
                continue;
            }
            URI uri = parseUrl(raw);
            if (uri.getUserInfo() != null) {
                urlUserInfo = Optional.of(uri.getUserInfo());
                uri = URI.create(uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
                        + (uri.getRawPath() == null ? "" : uri.getRawPath()));
            }
            urls.add(uri.toString());
        }
        String credentialsSource = string(configs, BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO");
        Optional<String> userInfo = secret(configs, BASIC_AUTH_USER_INFO);
        if (userInfo.isEmpty() || "URL".equalsIgnoreCase(credentialsSource)) {
            userInfo = urlUserInfo;
        }
        return new AvroSerdeConfig(List.copyOf(urls),
                bool(configs, AUTO_REGISTER_SCHEMAS, true),
                bool(configs, USE_LATEST_VERSION, false),
                userInfo,
                bearerToken(configs),
                secret(configs, SSL_TRUSTSTORE_LOCATION).map(location -> new RegistryTrustStore(Path.of(location),
                        secret(configs, SSL_TRUSTSTORE_PASSWORD), string(configs, SSL_TRUSTSTORE_TYPE, "PKCS12"))),
                bool(configs, SPECIFIC_AVRO_READER, false),
                Duration.ofSeconds(number(configs, LATEST_CACHE_TTL_SEC, -1)),
                Duration.ofMillis(number(configs, REQUEST_TIMEOUT_MS, 10_000)),
                (int) number(configs, REQUEST_ATTEMPTS, 6),
                Duration.ofMillis(number(configs, RETRY_BACKOFF_MS, 200)));
    }

    /** A caching client for these settings: the in-memory registry of a mock:// scope, else the REST client. */
    public SchemaRegistryClient newClient() {
        SchemaRegistryClient client = registryUrls.get(0).startsWith(MockSchemaRegistry.MOCK_URL_PREFIX)
                ? MockSchemaRegistry.clientFor(registryUrls.get(0))
                : new RestSchemaRegistryClient(registryUrls.stream().map(URI::create).toList(), authorization(),
                        trustStore.map(RegistryTrustStore::sslContext), requestTimeout, requestAttempts, retryBackoff);
        return new CachingSchemaRegistryClient(client, latestCacheTtl);
    }

    /** The {@code Authorization} header the client sends: the bearer token when given, else basic credentials. */
    public Optional<String> authorization() {
        return bearerAuthToken.map(RestSchemaRegistryClient::bearerAuthorization)
                .or(() -> basicAuthUserInfo.map(RestSchemaRegistryClient::basicAuthorization));
    }

    /** Never shows the credentials. */
    @Override
    public String toString() {
        return "AvroSerdeConfig[registryUrls=" + registryUrls + ", autoRegister=" + autoRegister
                + ", useLatestVersion=" + useLatestVersion + ", basicAuth=" + (basicAuthUserInfo.isPresent() ? "[hidden]" : "none")
                + ", bearerAuth=" + (bearerAuthToken.isPresent() ? "[hidden]" : "none")
                + ", trustStore=" + trustStore.map(RegistryTrustStore::toString).orElse("default")
                + ", specificReader=" + specificReader + "]";
    }

    /** Confluent's static bearer token: {@code bearer.auth.credentials.source=STATIC_TOKEN} and {@code bearer.auth.token}. */
    private static Optional<String> bearerToken(Map<String, ?> configs) {
        Object source = configs.get(BEARER_AUTH_CREDENTIALS_SOURCE);
        if (source == null || source.toString().isBlank()) {
            return Optional.empty();
        }
        if (!source.toString().trim().equalsIgnoreCase("STATIC_TOKEN")) {
            throw new ConfigException(BEARER_AUTH_CREDENTIALS_SOURCE, source, "only STATIC_TOKEN is supported");
        }
        return Optional.of(secret(configs, BEARER_AUTH_TOKEN).orElseThrow(() -> new ConfigException(
                BEARER_AUTH_CREDENTIALS_SOURCE + "=STATIC_TOKEN needs " + BEARER_AUTH_TOKEN)));
    }

    /** A setting that may be a secret: given as text or as Kafka's {@link Password}; empty is not set. */
    private static Optional<String> secret(Map<String, ?> configs, String key) {
        Object value = configs.get(key);
        return Optional.ofNullable(value).map(v -> v instanceof Password password ? password.value() : v.toString())
                .filter(s -> !s.isEmpty());
    }

    private static URI parseUrl(String raw) {
        try {
            URI uri = URI.create(raw);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(SCHEMA_REGISTRY_URL, raw.replaceAll("//[^@/]*@", "//[hidden]@"),
                    "not a URL (expected e.g. http://localhost:8081): " + e.getMessage());
        }
    }

    private static String string(Map<String, ?> configs, String key, String fallback) {
        Object value = configs.get(key);
        return value == null ? fallback : value.toString().trim();
    }

    private static boolean bool(Map<String, ?> configs, String key, boolean fallback) {
        Object value = configs.get(key);
        if (value == null) {
            return fallback;
        }
        String text = value.toString().trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new ConfigException(key, value, "expected true or false");
        }
        return Boolean.parseBoolean(text);
    }

    private static long number(Map<String, ?> configs, String key, long fallback) {
        Object value = configs.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(key, value, "expected a whole number");
        }
    }
}
