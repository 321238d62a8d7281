package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.http.HttpServers;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The HTTP API without a broker: Kafka Streams created but not started (as during start-up), then closed (as after a
 * fatal error). Liveness apart from readiness; bad requests are 400 with a reason; a query that cannot be answered is
 * 503 with Retry-After, never an empty answer or a 500.
 */
class HttpApiTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private HttpApi server;
    private KafkaStreams streams;
    private PrometheusMeterRegistry metrics;

    @BeforeEach
    void start() throws Exception {
        server = new HttpApi("127.0.0.1", 0);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "http-api-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, System.getProperty("java.io.tmpdir") + "/http-api-test-" + System.nanoTime());
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
    void listeningOnEveryInterfaceItsUrlNamesLocalhost() throws Exception {
        HttpApi everywhere = new HttpApi("0.0.0.0", 0);
        try {
            assertThat(everywhere.url()).isEqualTo("http://localhost:" + everywhere.port());
        } finally {
            everywhere.close();
        }
    }

    @Test
    void aCreatedInstanceIsAliveButNotReady() throws Exception {
        assertAnswer(get("/health/live"), 200, "{\"status\":\"UP\",\"streams\":\"CREATED\"}");
        assertAnswer(get("/health/ready"), 503, "{\"status\":\"DOWN\",\"streams\":\"CREATED\",\"reason\":\"Kafka Streams is CREATED, not RUNNING\"}");
        assertAnswer(get("/health"), 503, "{\"status\":\"DOWN\",\"streams\":\"CREATED\",\"reason\":\"Kafka Streams is CREATED, not RUNNING\"}");
    }

    @Test
    void aStoppedInstanceIsNeitherAliveNorReady() throws Exception {
        streams.close();

        assertAnswer(get("/health/live"), 503, "{\"status\":\"DOWN\",\"streams\":\"NOT_RUNNING\"}");
        assertAnswer(get("/health/ready"), 503, "{\"status\":\"DOWN\",\"streams\":\"NOT_RUNNING\",\"reason\":\"Kafka Streams is NOT_RUNNING, not RUNNING\"}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "/analytics?window=2m | bad request | window must be 1m, 1h or total and by agent, model, provider, tenant, team, user or tag; got window=2m, by=agent",
        "/analytics?by=user | bad request | by=user: the analytics windows are not keyed by user; add it to analytics.dimensions (docs/analytics.md#dimensions)",
        "/analytics/export?window=week | bad request | window must be 1m, 1h or total; got week",
        "/jobs?limit=abc | bad request | limit must be a whole number from 1 to 500; got abc",
        "/jobs?limit=501 | bad request | limit must be a whole number from 1 to 500; got 501",
        "/jobs?limit=0 | bad request | limit must be a whole number from 1 to 500; got 0",
        "/jobs?after=yesterday | bad request | after must be the 'next' value of a previous page; got yesterday",
    })
    void badRequestsAre400WithAReason(String path, String error, String detail) throws Exception {
        HttpResponse<String> response = get(path);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"error\":\"" + error + "\",\"detail\":\"" + detail + "\"}");
    }

    /** The JDK's server refuses a malformed URI itself, before any handler: 400, never a 500 or a stack trace. */
    @ParameterizedTest
    @CsvSource({"/jobs/%zz", "/ui/jobs/%E0%A4%A", "/analytics?window=%zz"})
    void aMalformedEscapeIs400(String path) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 400 ").doesNotContain("Exception:").doesNotContain("\tat ");
        }
    }

    @Test
    void analyticsThatCannotBeAnsweredIs503WithRetryAfterNotAnEmptySeries() throws Exception {
        HttpResponse<String> response = get("/analytics?window=1h&by=model");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.body()).isEqualTo("{\"error\":\"unavailable\",\"detail\":\"Kafka Streams is CREATED, not RUNNING\","
                + "\"retryAfterSeconds\":1,\"advice\":\"partitions are being assigned or restored; retry the same request shortly\"}");
    }

    @Test
    void theJobListThatCannotBeAnsweredIs503() throws Exception {
        HttpResponse<String> response = get("/jobs");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.body()).startsWith("{\"error\":\"unavailable\",\"detail\":\"Kafka Streams is CREATED, not RUNNING\"");
    }

    @Test
    void healthAndMetricsAnswerWhileEveryQueryThreadIsBlocked() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // every query thread busy and the queue full, as when other instances do not answer a fan-out
        occupy(server.queryThreads(), release);
        try {
            long started = System.nanoTime();
            assertAnswer(get("/health/live"), 200, "{\"status\":\"UP\",\"streams\":\"CREATED\"}");
            assertThat(get("/health/ready").statusCode()).isEqualTo(503);
            assertThat(get("/metrics").statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
            HttpResponse<String> query = get("/jobs");
            assertThat(query.statusCode()).isEqualTo(503);
            assertThat(query.body()).contains("too many queries in progress");
        } finally {
            release.countDown();
        }
    }

    @Test
    void healthAnswersWhileEveryMetricsThreadIsBlocked() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        // every metrics thread busy and the queue full, as under a crowd of slow scrapes
        occupy(server.metricsThreads(), release);
        try {
            long started = System.nanoTime();
            assertAnswer(get("/health/live"), 200, "{\"status\":\"UP\",\"streams\":\"CREATED\"}");
            assertThat(get("/health/ready").statusCode()).isEqualTo(503);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
            HttpResponse<String> scrape = get("/metrics");
            assertThat(scrape.statusCode()).isEqualTo(503);
            assertThat(scrape.body()).contains("too many scrapes in progress");
        } finally {
            release.countDown();
        }
    }

    /** Fills every thread and the queue of {@code threads} with tasks that wait for {@code release}. */
    private static void occupy(ThreadPoolExecutor threads, CountDownLatch release) {
        while (true) {
            try {
                threads.execute(() -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (RejectedExecutionException full) {
                return;
            }
        }
    }

    /**
     * Clients that open a connection, send part of a request and stop (slowloris, or a half-open connection after a
     * network fault) hold one of the server's request readers each. They must not stop the answers, liveness least of
     * all (a probe that fails restarts a healthy instance), and they are closed once the request timeout is past.
     */
    @Test
    void idleHalfOpenConnectionsNeitherStopTheProbesNorStayOpenPastTheRequestTimeout() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.getOutputStream().write("GET /jobs HTTP/1.1\r\nHost: loc".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                idle.add(socket);
            }
            Thread.sleep(300); // each is read by now, as far as it goes

            long started = System.nanoTime();
            HttpResponse<String> live = http.send(HttpRequest.newBuilder(URI.create(server.url() + "/health/live"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertAnswer(live, 200, "{\"status\":\"UP\",\"streams\":\"CREATED\"}");
            assertThat(get("/health/ready").statusCode()).isEqualTo(503);
            assertThat(get("/jobs").statusCode()).isEqualTo(503);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));

            // closed by the server after the request timeout (plus the JDK timer's tick of a second)
            Duration closedWithin = HttpServers.REQUEST_TIMEOUT.plusSeconds(5);
            for (Socket socket : idle) {
                socket.setSoTimeout((int) closedWithin.toMillis());
                assertThat(readToEnd(socket)).as("what the server sent before closing").doesNotContain("200");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(closedWithin);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    /** Everything the server sends until it closes the connection; a reset counts as closed. */
    private static String readToEnd(Socket socket) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        try {
            for (int n; (n = socket.getInputStream().read(buffer)) >= 0; ) {
                read.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // closed
        }
        return read.toString(StandardCharsets.US_ASCII);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertAnswer(HttpResponse<String> response, int status, String body) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).isEqualTo(body);
    }
}
