package io.agentoutcomes.avro.serde;

import io.agentoutcomes.avro.registry.CachingSchemaRegistryClient;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.registry.RegistryCalls;
import io.agentoutcomes.avro.registry.RegistryTls;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.SchemaRegistryClient;
import io.agentoutcomes.avro.registry.StoreFile;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * The serde's settings, under the names Confluent's serializers use, parsed once from a Kafka config map. Confluent's
 * names of the retry and timeout settings are aliases, with or without the {@code schema.registry.} prefix.
 *
 * @param registryUrls       {@code schema.registry.url}: comma-separated registry URLs, or {@code mock://scope}
 * @param autoRegister       {@code auto.register.schemas}: register the writer's schema (default true)
 * @param useLatestVersion   {@code use.latest.version}: write with the subject's latest schema (default false)
 * @param basicAuthUserInfo  {@code basic.auth.user.info} ({@code user:password}), credentials in the URL
 *                           ({@code basic.auth.credentials.source=URL}), or the Kafka clients' SASL user
 *                           ({@code SASL_INHERIT})
 * @param bearerAuthToken    {@code bearer.auth.token}, with {@code bearer.auth.credentials.source=STATIC_TOKEN}: sent
 *                           instead of basic credentials
 * @param tls                {@code schema.registry.ssl.truststore.*} (what HTTPS trusts; not set: the JVM's default),
 *                           {@code schema.registry.ssl.keystore.*} and {@code .key.password} (the client certificate)
 * @param specificReader     {@code specific.avro.reader}: decode to generated classes (default false)
 * @param latestCacheTtl     {@code latest.cache.ttl.sec}: how long a subject's latest version is kept (-1: always)
 * @param calls              timeouts and retries: {@code schema.registry.request.timeout.ms} (alias
 *                           {@code http.read.timeout.ms}, default 10 000), {@code http.connect.timeout.ms} (default the
 *                           request timeout), {@code schema.registry.request.attempts} (or {@code max.retries} + 1,
 *                           default 6), {@code schema.registry.retry.backoff.ms} (alias {@code retries.wait.ms},
 *                           default 200, doubled each time) and {@code retries.max.wait.ms} (default no limit)
 */
public record AvroSerdeConfig(
        List<String> registryUrls,
        boolean autoRegister,
        boolean useLatestVersion,
        Optional<String> basicAuthUserInfo,
        Optional<String> bearerAuthToken,
        RegistryTls tls,
        boolean specificReader,
        Duration latestCacheTtl,
        RegistryCalls calls) {

    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    public static final String USE_LATEST_VERSION = "use.latest.version";
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    /** Confluent's deprecated name of {@link #BASIC_AUTH_USER_INFO}. */
    public static final String SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO = "schema.registry.basic.auth.user.info";
    public static final String BEARER_AUTH_CREDENTIALS_SOURCE = "bearer.auth.credentials.source";
    public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
    public static final String SSL_TRUSTSTORE_LOCATION = "schema.registry.ssl.truststore.location";
    public static final String SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String SSL_TRUSTSTORE_TYPE = "schema.registry.ssl.truststore.type";
    public static final String SSL_KEYSTORE_LOCATION = "schema.registry.ssl.keystore.location";
    public static final String SSL_KEYSTORE_PASSWORD = "schema.registry.ssl.keystore.password";
    public static final String SSL_KEYSTORE_TYPE = "schema.registry.ssl.keystore.type";
    public static final String SSL_KEY_PASSWORD = "schema.registry.ssl.key.password";
    public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";
    public static final String LATEST_CACHE_TTL_SEC = "latest.cache.ttl.sec";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String REQUEST_ATTEMPTS = "schema.registry.request.attempts";
    public static final String RETRY_BACKOFF_MS = "schema.registry.retry.backoff.ms";
    /** Confluent's names of the client's timeouts and retries, each also under {@code schema.registry.}. */
    public static final String HTTP_READ_TIMEOUT_MS = "http.read.timeout.ms";
    public static final String HTTP_CONNECT_TIMEOUT_MS = "http.connect.timeout.ms";
    public static final String MAX_RETRIES = "max.retries";
    public static final String RETRIES_WAIT_MS = "retries.wait.ms";
    public static final String RETRIES_MAX_WAIT_MS = "retries.max.wait.ms";
    public static final String CLIENT_NAMESPACE = "schema.registry.";

    /** Every setting this serde reads, under every name it takes. */
    public static final Set<String> HONOURED = Set.of(SCHEMA_REGISTRY_URL, AUTO_REGISTER_SCHEMAS, USE_LATEST_VERSION,
            BASIC_AUTH_CREDENTIALS_SOURCE, BASIC_AUTH_USER_INFO, SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO,
            BEARER_AUTH_CREDENTIALS_SOURCE, BEARER_AUTH_TOKEN, SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD,
            SSL_TRUSTSTORE_TYPE, SSL_KEYSTORE_LOCATION, SSL_KEYSTORE_PASSWORD, SSL_KEYSTORE_TYPE, SSL_KEY_PASSWORD,
            SPECIFIC_AVRO_READER, LATEST_CACHE_TTL_SEC, REQUEST_TIMEOUT_MS, REQUEST_ATTEMPTS, RETRY_BACKOFF_MS,
            HTTP_READ_TIMEOUT_MS, CLIENT_NAMESPACE + HTTP_READ_TIMEOUT_MS, HTTP_CONNECT_TIMEOUT_MS,
            CLIENT_NAMESPACE + HTTP_CONNECT_TIMEOUT_MS, MAX_RETRIES, CLIENT_NAMESPACE + MAX_RETRIES, RETRIES_WAIT_MS,
            CLIENT_NAMESPACE + RETRIES_WAIT_MS, RETRIES_MAX_WAIT_MS, CLIENT_NAMESPACE + RETRIES_MAX_WAIT_MS);

    /** Parses the serde settings from a Kafka config map; {@code schema.registry.url} is required. */
    public static AvroSerdeConfig from(Map<String, ?> configs) {
        Object url = configs.get(SCHEMA_REGISTRY_URL);
        if (url == null || url.toString().isBlank()) {
            throw new ConfigException("Missing required configuration \"" + SCHEMA_REGISTRY_URL
                    + "\": the URL of a Confluent-compatible schema registry (or mock://<scope> in tests)");
        }
        SerdeSettings settings = new SerdeSettings(configs);
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
        Optional<String> inUrl = urlUserInfo;
        String credentialsSource = settings.string("USER_INFO", BASIC_AUTH_CREDENTIALS_SOURCE).toUpperCase(Locale.ROOT);
        Optional<String> userInfo = switch (credentialsSource) {
            case "USER_INFO" -> settings.secret(BASIC_AUTH_USER_INFO, SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO).or(() -> inUrl);
            case "URL" -> inUrl;
            case "SASL_INHERIT" -> Optional.of(settings.saslUserInfo(BASIC_AUTH_CREDENTIALS_SOURCE));
            default -> throw new ConfigException(BASIC_AUTH_CREDENTIALS_SOURCE, credentialsSource,
                    "expected USER_INFO, URL or SASL_INHERIT");
        };
        Duration requestTimeout = Duration.ofMillis(settings.number(10_000, 1, REQUEST_TIMEOUT_MS, HTTP_READ_TIMEOUT_MS,
                CLIENT_NAMESPACE + HTTP_READ_TIMEOUT_MS));
        long attempts = settings.value(REQUEST_ATTEMPTS).isPresent() ? settings.number(6, 1, REQUEST_ATTEMPTS)
                : settings.number(5, 0, MAX_RETRIES, CLIENT_NAMESPACE + MAX_RETRIES) + 1;
        return new AvroSerdeConfig(List.copyOf(urls),
                settings.bool(true, AUTO_REGISTER_SCHEMAS),
                settings.bool(false, USE_LATEST_VERSION),
                userInfo,
                bearerToken(settings),
                new RegistryTls(store(settings, SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD, SSL_TRUSTSTORE_TYPE),
                        store(settings, SSL_KEYSTORE_LOCATION, SSL_KEYSTORE_PASSWORD, SSL_KEYSTORE_TYPE),
                        settings.secret(SSL_KEY_PASSWORD)),
                settings.bool(false, SPECIFIC_AVRO_READER),
                Duration.ofSeconds(settings.number(-1, -1, LATEST_CACHE_TTL_SEC)),
                new RegistryCalls(settings.value(HTTP_CONNECT_TIMEOUT_MS, CLIENT_NAMESPACE + HTTP_CONNECT_TIMEOUT_MS).isPresent()
                        ? Duration.ofMillis(settings.number(0, 1, HTTP_CONNECT_TIMEOUT_MS, CLIENT_NAMESPACE + HTTP_CONNECT_TIMEOUT_MS))
                        : requestTimeout,
                        requestTimeout, (int) Math.min(attempts, Integer.MAX_VALUE),
                        Duration.ofMillis(settings.number(200, 0, RETRY_BACKOFF_MS, RETRIES_WAIT_MS, CLIENT_NAMESPACE + RETRIES_WAIT_MS)),
                        Duration.ofMillis(settings.number(Long.MAX_VALUE, 0, RETRIES_MAX_WAIT_MS, CLIENT_NAMESPACE + RETRIES_MAX_WAIT_MS))));
    }

    private static Optional<StoreFile> store(SerdeSettings settings, String location, String password, String type) {
        return settings.secret(location).map(file -> new StoreFile(Path.of(file), settings.secret(password),
                settings.string("PKCS12", type)));
    }

    /** A caching client for these settings: the in-memory registry of a mock:// scope, else the REST client. */
    public SchemaRegistryClient newClient() {
        SchemaRegistryClient client = registryUrls.get(0).startsWith(MockSchemaRegistry.MOCK_URL_PREFIX)
                ? MockSchemaRegistry.clientFor(registryUrls.get(0))
                : new RestSchemaRegistryClient(registryUrls.stream().map(URI::create).toList(), authorization(),
                        tls.configured() ? Optional.of(tls.sslContext()) : Optional.empty(), calls);
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
                + ", tls=" + tls
                + ", specificReader=" + specificReader + "]";
    }

    /** Confluent's static bearer token: {@code bearer.auth.credentials.source=STATIC_TOKEN} and {@code bearer.auth.token}. */
    private static Optional<String> bearerToken(SerdeSettings settings) {
        String source = settings.string("", BEARER_AUTH_CREDENTIALS_SOURCE);
        if (source.isBlank()) {
            return Optional.empty();
        }
        if (!source.equalsIgnoreCase("STATIC_TOKEN")) {
            throw new ConfigException(BEARER_AUTH_CREDENTIALS_SOURCE, source, "only STATIC_TOKEN is supported");
        }
        return Optional.of(settings.secret(BEARER_AUTH_TOKEN).orElseThrow(() -> new ConfigException(
                BEARER_AUTH_CREDENTIALS_SOURCE + "=STATIC_TOKEN needs " + BEARER_AUTH_TOKEN)));
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
}
