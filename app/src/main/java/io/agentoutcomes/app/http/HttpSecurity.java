package io.agentoutcomes.app.http;

import com.sun.net.httpserver.Headers;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.registry.StoreFile;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * Who may use the HTTP API and the embedded registry, and over what, from the {@code http.auth.*} and {@code http.tls.*}
 * settings: the credentials accepted (a bearer token, basic {@code user:password}, compared in constant time), whether
 * they are required, and TLS from a keystore. Listening beyond loopback, credentials and TLS are required unless
 * switched off by name: {@link #problems} says what is missing, and the service does not start until it is given.
 * Never shows a secret ({@link #toString}).
 *
 * @param host           {@code http.host}, where the servers listen
 * @param beyondLoopback whether {@code host} is reachable from other machines (anything but a loopback address)
 * @param authEnabled    {@code http.auth.enabled}; empty: on when credentials are set or beyond loopback
 * @param bearerToken    {@code http.auth.bearer.token}
 * @param basicUserInfo  {@code http.auth.basic.user.info}, {@code user:password}
 * @param metricsAuth    {@code http.auth.metrics}: {@code /metrics} requires the credentials too
 * @param tlsEnabled     {@code http.tls.enabled}; empty: on when a keystore is set or beyond loopback
 * @param keystore       {@code http.tls.keystore.*}
 * @param keyPassword    {@code http.tls.key.password}; empty: the keystore's
 * @param truststore     {@code http.tls.truststore.*}; empty: the JVM's default trust store
 * @param registryClientCertificates {@code embedded.registry.tls.client.auth=required}: the embedded registry answers
 *                       only clients presenting a certificate the trust store trusts, and the service presents its
 *                       keystore's to it
 */
public record HttpSecurity(String host, boolean beyondLoopback, Optional<Boolean> authEnabled,
                           Optional<String> bearerToken, Optional<String> basicUserInfo, boolean metricsAuth,
                           Optional<Boolean> tlsEnabled, Optional<StoreFile> keystore, Optional<String> keyPassword,
                           Optional<StoreFile> truststore, boolean registryClientCertificates) {
    /** The realm of the {@code WWW-Authenticate} challenge. */
    public static final String REALM = "agent-outcomes";

    public HttpSecurity {
        bearerToken = bearerToken.filter(token -> !token.isBlank());
        basicUserInfo = basicUserInfo.filter(userInfo -> !userInfo.isEmpty());
        keyPassword = keyPassword.filter(password -> !password.isEmpty());
    }

    /** No credentials and plain HTTP on the loopback, as the service runs on a laptop (and the tests of other things). */
    public static HttpSecurity none() {
        return new HttpSecurity("127.0.0.1", false, Optional.empty(), Optional.empty(), Optional.empty(), false,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
    }

    /** Whether credentials are configured. */
    public boolean hasCredentials() {
        return bearerToken.isPresent() || basicUserInfo.isPresent();
    }

    /** Whether the data and write endpoints answer only requests with the credentials. */
    public boolean authRequired() {
        return authEnabled.orElse(hasCredentials() || beyondLoopback);
    }

    /** Whether {@code GET /metrics} answers only requests with the credentials. */
    public boolean metricsRequireAuth() {
        return authRequired() && metricsAuth;
    }

    /** Whether the servers speak HTTPS. */
    public boolean tls() {
        return tlsEnabled.orElse(keystore.isPresent() || beyondLoopback);
    }

    /** {@code https} or {@code http}. */
    public String scheme() {
        return tls() ? "https" : "http";
    }

    /**
     * What keeps the servers from starting with these settings, each naming the settings that fix it: credentials
     * required (by default beyond loopback) but none set, TLS on (by default beyond loopback) without a keystore.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (authRequired() && !hasCredentials()) {
            problems.add((authEnabled.isPresent() ? "http.auth.enabled=true needs credentials:"
                    : "http.host=" + host + " listens beyond loopback, so the HTTP API and the embedded registry require credentials:")
                    + " set http.auth.bearer.token and/or http.auth.basic.user.info (AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN, "
                    + "AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO)" + (authEnabled.isPresent() ? ""
                    : ", or http.auth.enabled=false to answer anyone who reaches them"));
        }
        if (tls() && keystore.isEmpty()) {
            problems.add((tlsEnabled.isPresent() ? "http.tls.enabled=true needs a keystore:"
                    : "http.host=" + host + " listens beyond loopback, so the HTTP API and the embedded registry speak HTTPS:")
                    + " set http.tls.keystore.location and http.tls.keystore.password (AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_LOCATION, "
                    + "AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD)" + (tlsEnabled.isPresent() ? ""
                    : ", or http.tls.enabled=false for plain HTTP (behind a proxy that terminates TLS)"));
        }
        if (registryClientCertificates && (!tls() || truststore.isEmpty())) {
            problems.add("embedded.registry.tls.client.auth=required needs HTTPS and the certificates it accepts: set "
                    + "http.tls.keystore.location and http.tls.truststore.location (the CA that signed the clients' certificates)");
        }
        return problems;
    }

    /**
     * Whether a request carries the configured credentials: {@code Authorization: Bearer <token>} or {@code Basic}
     * with {@code user:password}. Compared as digests in constant time, so neither the content nor the length of a
     * secret shows in how long a refusal takes.
     */
    public boolean authenticated(Headers request) {
        String header = request.getFirst("Authorization");
        if (header == null) {
            return false;
        }
        header = header.trim();
        if (bearerToken.isPresent() && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return sameSecret(header.substring(7).trim(), bearerToken.get());
        }
        if (basicUserInfo.isPresent() && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String given = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
                return sameSecret(given, basicUserInfo.get());
            } catch (IllegalArgumentException notBase64) {
                return false;
            }
        }
        return false;
    }

    private static boolean sameSecret(String given, String expected) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] a = sha256.digest(given.getBytes(StandardCharsets.UTF_8));
            byte[] b = sha256.digest(expected.getBytes(StandardCharsets.UTF_8));
            return MessageDigest.isEqual(a, b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Adds the {@code WWW-Authenticate} challenges of a 401: Basic (so a browser asks) and Bearer, as configured. */
    public void challenge(Headers response) {
        if (basicUserInfo.isPresent() || bearerToken.isEmpty()) {
            response.add("WWW-Authenticate", "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
        }
        if (bearerToken.isPresent()) {
            response.add("WWW-Authenticate", "Bearer realm=\"" + REALM + "\"");
        }
    }

    /**
     * The {@code Authorization} header the service presents to its other instances and its embedded registry: the
     * basic credentials when set, else the bearer token; none without credentials.
     */
    public Optional<String> clientAuthorization() {
        return basicUserInfo.map(RestSchemaRegistryClient::basicAuthorization)
                .or(() -> bearerToken.map(RestSchemaRegistryClient::bearerAuthorization));
    }

    /** The servers' TLS context from the keystore, when TLS is on; a keystore that cannot be read is an error naming it. */
    public Optional<SSLContext> serverSslContext() {
        if (!tls()) {
            return Optional.empty();
        }
        StoreFile store = keystore.orElseThrow(() -> new IllegalStateException(String.join("; ", problems())));
        return Optional.of(HttpTls.context(Optional.of(store), keyPassword, Optional.empty()));
    }

    /**
     * The embedded registry's TLS context: the servers', and with client certificates required, the trust store's
     * certificates to check them against ({@link HttpServers#listen(String, int, String, Optional, boolean)}).
     */
    public Optional<SSLContext> registrySslContext() {
        if (!registryClientCertificates) {
            return serverSslContext();
        }
        if (problems().stream().anyMatch(problem -> problem.startsWith("embedded.registry"))) {
            throw new IllegalStateException(String.join("; ", problems()));
        }
        return Optional.of(HttpTls.context(keystore, keyPassword, truststore));
    }

    /**
     * What the service trusts when it calls over HTTPS: the trust store when set, else empty (the JVM's default); with
     * the embedded registry requiring client certificates, it presents its keystore's too.
     */
    public Optional<SSLContext> clientSslContext() {
        if (registryClientCertificates && keystore.isPresent()) {
            return Optional.of(HttpTls.context(keystore, keyPassword, truststore));
        }
        return truststore.map(store -> HttpTls.context(Optional.empty(), Optional.empty(), Optional.of(store)));
    }

    /** An HTTP client for calls to the other instances: the trust store, the given connect timeout. */
    public HttpClient client(Duration connectTimeout) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(connectTimeout);
        clientSslContext().ifPresent(builder::sslContext);
        return builder.build();
    }

    /**
     * The serde settings of a client of this service's embedded registry ({@link AvroSerdeConfig}'s names, as
     * Confluent's clients take them): its credentials and, over HTTPS, the trust store.
     */
    public Map<String, String> registryClientSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        if (basicUserInfo.isPresent()) {
            settings.put(AvroSerdeConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO");
            settings.put(AvroSerdeConfig.BASIC_AUTH_USER_INFO, basicUserInfo.get());
        } else if (bearerToken.isPresent()) {
            settings.put(AvroSerdeConfig.BEARER_AUTH_CREDENTIALS_SOURCE, "STATIC_TOKEN");
            settings.put(AvroSerdeConfig.BEARER_AUTH_TOKEN, bearerToken.get());
        }
        if (tls()) {
            truststore.ifPresent(store -> {
                settings.put(AvroSerdeConfig.SSL_TRUSTSTORE_LOCATION, store.location().toString());
                store.password().ifPresent(password -> settings.put(AvroSerdeConfig.SSL_TRUSTSTORE_PASSWORD, password));
                settings.put(AvroSerdeConfig.SSL_TRUSTSTORE_TYPE, store.type());
            });
        }
        if (registryClientCertificates) {
            keystore.ifPresent(store -> {
                settings.put(AvroSerdeConfig.SSL_KEYSTORE_LOCATION, store.location().toString());
                store.password().ifPresent(password -> settings.put(AvroSerdeConfig.SSL_KEYSTORE_PASSWORD, password));
                settings.put(AvroSerdeConfig.SSL_KEYSTORE_TYPE, store.type());
            });
            keyPassword.ifPresent(password -> settings.put(AvroSerdeConfig.SSL_KEY_PASSWORD, password));
        }
        return settings;
    }

    /** Every secret value, for the logs' last line of defence: the token, the credentials (also as sent), the passwords. */
    public Set<String> secretValues() {
        Set<String> secrets = new HashSet<>();
        bearerToken.ifPresent(secrets::add);
        basicUserInfo.ifPresent(userInfo -> {
            secrets.add(userInfo);
            secrets.add(Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)));
            String password = userInfo.substring(userInfo.indexOf(':') + 1);
            if (password.length() >= 4) {
                secrets.add(password);
            }
        });
        keystore.flatMap(StoreFile::password).ifPresent(secrets::add);
        keyPassword.ifPresent(secrets::add);
        truststore.flatMap(StoreFile::password).ifPresent(secrets::add);
        secrets.removeIf(String::isBlank);
        return secrets;
    }

    /** Never shows a secret: which credentials are set, not what they are. */
    @Override
    public String toString() {
        List<String> kinds = new ArrayList<>();
        bearerToken.ifPresent(t -> kinds.add("bearer"));
        basicUserInfo.ifPresent(u -> kinds.add("basic"));
        return "auth=" + (authRequired() ? "required" + kinds + (metricsRequireAuth() ? ", metrics too" : "") : "off")
                + ", tls=" + (tls() ? "on" + keystore.map(store -> " (" + store + ")").orElse("") : "off")
                + (registryClientCertificates ? ", registry client certificates required" : "");
    }
}
