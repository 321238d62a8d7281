package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.http.HttpSecurity;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP API over TLS, from a keystore an operator made with keytool: HTTPS only, trusted by who trusts the certificate. */
class HttpApiTlsTest {
    private static final String USER_INFO = "ops:tls-pa55w0rd";

    @TempDir
    Path dir;

    private TestKeystore keystore;
    private HttpApi server;
    private KafkaStreams streams;
    private PrometheusMeterRegistry metrics;

    @BeforeEach
    void start() throws Exception {
        keystore = TestKeystore.create(dir);
        Map<String, String> settings = new HashMap<>(keystore.serverSettings());
        settings.put("http.auth.basic.user.info", USER_INFO);
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), settings).httpSecurity();
        server = new HttpApi("127.0.0.1", 0, security);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "http-tls-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).to("out");
        streams = new KafkaStreams(builder.build(), props);
        metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        server.attach(HttpApi.Context.of(streams, new HostInfo("127.0.0.1", server.port()), metrics));
    }

    @AfterEach
    void stop() {
        server.close();
        streams.close();
        metrics.close();
    }

    @Test
    void aClientThatTrustsTheCertificateGetsTheAnswersOverHttps() throws Exception {
        HttpClient trusting = HttpClient.newBuilder().sslContext(keystore.trustingContext()).build();

        assertThat(server.url()).isEqualTo("https://127.0.0.1:" + server.port());
        assertThat(get(trusting, server.url() + "/health/live", Optional.empty()).body())
                .isEqualTo("{\"status\":\"UP\",\"streams\":\"CREATED\"}");
        assertThat(get(trusting, server.url() + "/jobs", Optional.empty()).statusCode()).isEqualTo(401);
        assertThat(get(trusting, server.url() + "/jobs", Optional.of(HttpApiAuthenticationTest.basic(USER_INFO))).statusCode())
                .isEqualTo(503);
        HttpSecurity asClient = ConfigLoader.load(Optional.empty(), Map.of(), keystore.serverSettings()).httpSecurity();
        assertThat(get(asClient.client(Duration.ofSeconds(2)), server.url() + "/health/live", Optional.empty()).statusCode())
                .as("the service's own client, with the trust store").isEqualTo(200);
    }

    @Test
    void plainHttpAndClientsThatDoNotTrustTheCertificateGetNothing() {
        HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

        assertThatThrownBy(() -> get(untrusting, server.url() + "/health/live", Optional.empty()))
                .isInstanceOf(SSLHandshakeException.class);
        assertThatThrownBy(() -> get(untrusting, "http://127.0.0.1:" + server.port() + "/health/live", Optional.empty()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aKeystoreThatCannotBeReadStopsTheStartNamingItButNotItsPassword() {
        Map<String, String> settings = new HashMap<>(keystore.serverSettings());
        settings.put("http.tls.keystore.password", "not-the-r1ght-one");
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), settings).httpSecurity();

        assertThatThrownBy(() -> new HttpApi("127.0.0.1", 0, security))
                .hasMessageStartingWith("Cannot use the keystore http.tls.keystore.location=" + keystore.file() + " (PKCS12): ")
                .hasMessageNotContaining("not-the-r1ght-one");
    }

    private static HttpResponse<String> get(HttpClient client, String url, Optional<String> authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        authorization.ifPresent(value -> request.header("Authorization", value));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
