package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.http.HttpSecurity;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP API with credentials configured, beside one without, over one Kafka Streams instance (created, not started):
 * without the credentials every data endpoint is 401 with a challenge; with them (bearer or basic) every endpoint
 * answers exactly what the open server answers; health is never protected, metrics only when asked.
 */
class HttpApiAuthenticationTest {
    private static final String TOKEN = "t0ken-Very-Long-And-Random-4e1d";
    private static final String USER_INFO = "ops:pa55-w0rd-Ex4mple";

    /** Every route that shows data (the pages too), and a path that matches none. */
    static final List<String> DATA_PATHS = List.of("/", "/ui/jobs", "/ui/jobs/job-1", "/jobs", "/jobs?limit=abc",
            "/jobs/export", "/jobs/job-1", "/jobs/job-1/completed", "/analytics", "/analytics?window=1h&by=model",
            "/analytics/export", "/no-such-route");
    static final List<String> HEALTH_PATHS = List.of("/health", "/health/live", "/health/ready");

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<HttpApi> servers = new ArrayList<>();
    private final List<PrometheusMeterRegistry> metrics = new ArrayList<>();
    private KafkaStreams streams;
    private HttpApi open;
    private HttpApi guarded;

    @BeforeEach
    void start() throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "http-auth-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, System.getProperty("java.io.tmpdir") + "/http-auth-test-" + System.nanoTime());
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())).to("out");
        streams = new KafkaStreams(builder.build(), props);
        open = server(Map.of());
        guarded = server(Map.of("http.auth.bearer.token", TOKEN, "http.auth.basic.user.info", USER_INFO));
    }

    /** A server with these settings (and the loopback), attached to the shared Kafka Streams instance. */
    private HttpApi server(Map<String, String> settings) throws Exception {
        HttpSecurity security = ConfigLoader.load(Optional.empty(), Map.of(), settings).httpSecurity();
        HttpApi server = new HttpApi("127.0.0.1", 0, security);
        servers.add(server);
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics.add(meters);
        server.attach(HttpApi.Context.of(streams, new HostInfo("127.0.0.1", server.port()), meters));
        return server;
    }

    @AfterEach
    void stop() {
        servers.forEach(HttpApi::close);
        streams.close();
        metrics.forEach(PrometheusMeterRegistry::close);
    }

    @Test
    void withoutCredentialsEveryDataEndpointIs401WithAChallenge() throws Exception {
        for (String path : DATA_PATHS) {
            HttpResponse<String> answer = get(guarded, path, Optional.empty());

            assertThat(answer.statusCode()).as("GET %s without credentials", path).isEqualTo(401);
            assertThat(answer.headers().allValues("WWW-Authenticate")).as(path)
                    .containsExactly("Basic realm=\"agent-outcomes\", charset=\"UTF-8\"", "Bearer realm=\"agent-outcomes\"");
            assertThat(answer.body()).isEqualTo("{\"error\":\"unauthorized\",\"detail\":\"this endpoint needs the "
                    + "service's credentials (Authorization: Bearer or Basic)\"}");
        }
        assertThat(send(guarded, "POST", "/jobs", Optional.empty()).statusCode()).isEqualTo(401);
    }

    @Test
    void aRedriveWithoutTheCredentialsIs401WithAChallengeAsGetOfItsPathIs() throws Exception {
        for (Optional<String> authorization : List.of(Optional.<String>empty(), Optional.of("Bearer wrong-token"))) {
            HttpResponse<String> answer = send(guarded, "POST", "/redrive", authorization);

            assertThat(answer.statusCode()).isEqualTo(401);
            assertThat(answer.headers().allValues("WWW-Authenticate"))
                    .containsExactly("Basic realm=\"agent-outcomes\", charset=\"UTF-8\"", "Bearer realm=\"agent-outcomes\"");
            assertThat(send(guarded, "GET", "/redrive", authorization).statusCode()).isEqualTo(401);
        }
        assertThat(send(guarded, "GET", "/redrive", Optional.of(bearer(TOKEN))).statusCode()).isEqualTo(405);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer wrong-token", "Bearer ", "Basic b3BzOndyb25n", "Basic not-base64!",
            "Basic b3BzOnBhNTUtdzByZC1FeDRtcGw=", "Digest ops", "t0ken-Very-Long-And-Random-4e1d"})
    void wrongCredentialsAre401(String authorization) throws Exception {
        // Basic b3BzOnBhNTUtdzByZC1FeDRtcGw= is ops:pa55-w0rd-Ex4mple without the last character
        for (String path : DATA_PATHS) {
            assertThat(get(guarded, path, Optional.of(authorization)).statusCode()).as("GET %s with %s", path, authorization)
                    .isEqualTo(401);
        }
    }

    @Test
    void withTheBearerTokenOrTheBasicCredentialsEveryEndpointAnswersAsTheOpenServerDoes() throws Exception {
        List<String> paths = new ArrayList<>(DATA_PATHS);
        paths.addAll(HEALTH_PATHS);
        paths.add("/metrics");
        for (String authorization : List.of(bearer(TOKEN), basic(USER_INFO), "bearer " + TOKEN)) {
            for (String path : paths) {
                HttpResponse<String> expected = get(open, path, Optional.empty());
                HttpResponse<String> answer = get(guarded, path, Optional.of(authorization));

                assertThat(answer.statusCode()).as("GET %s with %s", path, authorization.substring(0, 6))
                        .isEqualTo(expected.statusCode());
                if (!path.equals("/metrics")) {
                    assertThat(answer.body()).as("GET %s", path).isEqualTo(expected.body());
                }
                assertThat(answer.headers().firstValue("Content-Type")).isEqualTo(expected.headers().firstValue("Content-Type"));
            }
        }
        assertThat(send(guarded, "POST", "/jobs", Optional.of(bearer(TOKEN))).statusCode()).isEqualTo(405);
    }

    @Test
    void healthAndMetricsStayOpen() throws Exception {
        for (String path : HEALTH_PATHS) {
            HttpResponse<String> answer = get(guarded, path, Optional.empty());
            assertThat(answer.statusCode()).as(path).isEqualTo(get(open, path, Optional.empty()).statusCode());
            assertThat(answer.body()).as(path).isEqualTo(get(open, path, Optional.empty()).body());
        }
        assertThat(get(guarded, "/metrics", Optional.empty()).statusCode()).isEqualTo(200);
    }

    @Test
    void metricsAreProtectedWhenTheSettingSaysSo() throws Exception {
        HttpApi metricsGuarded = server(Map.of("http.auth.bearer.token", TOKEN, "http.auth.metrics", "true"));

        HttpResponse<String> without = get(metricsGuarded, "/metrics", Optional.empty());
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.headers().allValues("WWW-Authenticate")).containsExactly("Bearer realm=\"agent-outcomes\"");
        assertThat(get(metricsGuarded, "/metrics", Optional.of(bearer(TOKEN))).statusCode()).isEqualTo(200);
        assertThat(get(metricsGuarded, "/health/live", Optional.empty()).statusCode()).isEqualTo(200);
    }

    @Test
    void withAuthenticationSwitchedOffNothingIsAsked() throws Exception {
        HttpApi off = server(Map.of("http.auth.bearer.token", TOKEN, "http.auth.enabled", "false"));

        for (String path : DATA_PATHS) {
            assertThat(get(off, path, Optional.empty()).statusCode()).as(path).isEqualTo(get(open, path, Optional.empty()).statusCode());
        }
    }

    private HttpResponse<String> get(HttpApi server, String path, Optional<String> authorization) throws Exception {
        return send(server, "GET", path, authorization);
    }

    private HttpResponse<String> send(HttpApi server, String method, String path, Optional<String> authorization)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        authorization.ifPresent(value -> request.header("Authorization", value));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String bearer(String token) {
        return "Bearer " + token;
    }

    static String basic(String userInfo) {
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }
}
