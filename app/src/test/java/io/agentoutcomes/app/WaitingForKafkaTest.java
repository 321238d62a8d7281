package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.LogFormat;
import io.agentoutcomes.app.kafka.EmbeddedKafkaBroker;
import io.agentoutcomes.app.logging.Logging;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} against an external Kafka that is not up yet (compose and Kubernetes start them side by side): the HTTP
 * server answers from the start, live and not ready, the log says what the service waits for, and the service starts
 * once Kafka is there.
 */
class WaitingForKafkaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @TempDir
    Path dir;

    @BeforeEach
    void captureTheLog() {
        originalErr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        Logging.configure(LogFormat.TEXT, Set.of());
    }

    @AfterEach
    void restoreTheLog() {
        System.setErr(originalErr);
        Logging.reset();
    }

    private AppConfig config(int kafkaPort, int httpPort) {
        return ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
                ConfigLoader.BOOTSTRAP_SERVERS, "127.0.0.1:" + kafkaPort,
                ConfigLoader.TOPIC_PARTITIONS, "1",
                ConfigLoader.DATA_DIR, dir.resolve("service").toString(),
                ConfigLoader.HTTP_PORT, String.valueOf(httpPort),
                ConfigLoader.EMBEDDED_REGISTRY_PORT, "0"));
    }

    /** The service's start, on a thread of its own (it waits), with the service or the failure it ended with. */
    private static final class Starting {
        final CompletableFuture<AgentOutcomesService> result = new CompletableFuture<>();
        final Thread thread;

        Starting(AppConfig config) {
            thread = new Thread(() -> {
                try {
                    result.complete(AgentOutcomesService.start(config));
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                }
            }, "service-start");
            thread.start();
        }
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private int awaitLive(int port) throws Exception {
        int[] status = new int[1];
        waitForCondition(() -> {
            try {
                status[0] = get(port, "/health/live").statusCode();
                return true;
            } catch (IOException e) {
                return false;
            }
        }, 15_000, "/health/live never answered while the service waited for Kafka");
        return status[0];
    }

    @Test
    void whileKafkaIsNotUpHealthLiveAnswersNotReadyTheLogSaysWhatItWaitsForAndTheServiceStartsWhenKafkaComes()
            throws Exception {
        int kafkaPort = freePort();
        int httpPort = freePort();
        String waitingFor = "waiting for Kafka at 127.0.0.1:" + kafkaPort + " (bootstrap.servers)";
        Starting starting = new Starting(config(kafkaPort, httpPort));

        assertThat(awaitLive(httpPort)).isEqualTo(200);
        waitForCondition(() -> log.toString(StandardCharsets.UTF_8).contains("Waiting for Kafka"), 10_000,
                "the log never said what the service waits for");
        JsonNode live = JSON.readTree(get(httpPort, "/health/live").body());
        HttpResponse<String> ready = get(httpPort, "/health/ready");

        assertThat(live.get("status").asText()).isEqualTo("UP");
        assertThat(live.get("starting").asText()).startsWith(waitingFor + ": ConnectException: no bootstrap server "
                + "accepts connections: 127.0.0.1:" + kafkaPort);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(ready.body()).get("reason").asText()).startsWith(waitingFor);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("StartupWait - Waiting for Kafka at 127.0.0.1:" + kafkaPort
                + " (bootstrap.servers): ConnectException: ", "/health/live answers 200 and /health/ready 503 until it answers");
        assertThat(starting.result).isNotDone();

        try (EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.start(dir.resolve("kafka"), kafkaPort);
             AgentOutcomesService service = starting.result.get(120, TimeUnit.SECONDS)) {
            DemoCommand.awaitRunning(service, Duration.ofSeconds(60));
            waitForCondition(() -> get(httpPort, "/health/ready").statusCode() == 200, 60_000,
                    "never ready after Kafka came");
            assertThat(log.toString(StandardCharsets.UTF_8)).contains("Kafka at 127.0.0.1:" + kafkaPort
                    + " (bootstrap.servers) answered after ");
        }
    }

    @Test
    void stoppingWhileWaitingForKafkaEndsTheStartAndClosesTheHttpServer() throws Exception {
        int httpPort = freePort();
        Starting starting = new Starting(config(freePort(), httpPort));
        awaitLive(httpPort);

        starting.thread.interrupt();
        starting.thread.join(10_000);

        assertThat(starting.result).isCompletedExceptionally();
        assertThatThrownBy(starting.result::join).hasCauseInstanceOf(InterruptedIOException.class);
        assertThatThrownBy(() -> get(httpPort, "/health/live")).isInstanceOf(ConnectException.class);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
