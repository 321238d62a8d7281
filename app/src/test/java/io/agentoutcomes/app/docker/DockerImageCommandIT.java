package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's command line, run here without a container engine: the Dockerfile's ENTRYPOINT script with its CMD and
 * ENV, against the shaded jar of this build, on the embedded default (compose points it at brokers this machine does
 * not have). What differs from the image: the jar's path (APP_JAR), the data directory and the ports (0: free ones).
 */
class DockerImageCommandIT {
    private static final Path JAR = Path.of(System.getProperty("agent-outcomes.jar", "target/agent-outcomes.jar"));

    @TempDir
    Path dir;

    private final DockerFiles.Dockerfile image = DockerFiles.dockerfile();

    /** The repository file the image's ENTRYPOINT is a copy of. */
    private Path entrypoint() {
        String inImage = image.execForm("ENTRYPOINT").get(0);
        String source = image.copies().entrySet().stream().filter(copy -> copy.getValue().equals(inImage))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError(inImage + " is copied from nowhere"));
        return Path.of("..").resolve(source);
    }

    private ProcessBuilder imageCommand(Map<String, String> overrides) {
        List<String> command = new ArrayList<>();
        command.add(entrypoint().toAbsolutePath().toString());
        command.addAll(image.execForm("CMD"));
        ProcessBuilder process = new ProcessBuilder(command).directory(dir.toFile());
        Map<String, String> env = process.environment();
        env.keySet().removeIf(name -> name.startsWith("AGENT_OUTCOMES_") || name.startsWith("OTEL_") || name.equals("JAVA_OPTS"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(image.env());
        env.put("APP_JAR", JAR.toAbsolutePath().toString());
        env.putAll(overrides);
        return process;
    }

    @Test
    void theImagesCommandLineRunsTheServiceUntilReadyWithJsonLogs() throws Exception {
        Map<String, String> overrides = new HashMap<>(Map.of(
                "AGENT_OUTCOMES_DATA_DIR", dir.resolve("data").toString(),
                "AGENT_OUTCOMES_HTTP_PORT", "0",
                "AGENT_OUTCOMES_EMBEDDED_KAFKA_PORT", "0",
                "AGENT_OUTCOMES_EMBEDDED_REGISTRY_PORT", "0",
                "AGENT_OUTCOMES_LOG_FORMAT", "json",
                "AGENT_OUTCOMES_TOPIC_PARTITIONS", "1",
                "AGENT_OUTCOMES_SSL_TRUSTSTORE_PASSWORD", "never-logged-7x"));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process service = imageCommand(overrides).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            waitFor(() -> httpUrl(out).isPresent() || !service.isAlive(), 120_000,
                    () -> "the service did not say where it listens: " + read(out) + read(err));
            assertThat(service.isAlive()).as("the service stopped: " + read(err)).isTrue();
            // bound to every interface (printed as 0.0.0.0 or the IPv6 any address): reached here on the loopback
            String printed = httpUrl(out).orElseThrow();
            String url = "http://127.0.0.1:" + printed.substring(printed.lastIndexOf(':') + 1);

            waitFor(() -> status(url + "/health/ready") == 200, 120_000,
                    () -> "not ready: " + read(err));
            assertThat(status(url + "/health/live")).isEqualTo(200);

            ObjectMapper json = new ObjectMapper();
            List<String> lines = read(err).lines().toList();
            assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(json.readTree(line).isObject()).as(line).isTrue());
            assertThat(lines).anySatisfy(line -> {
                JsonNode event = json.readTree(line);
                assertThat(event.get("message").asText()).startsWith("Starting with AppConfig[").contains("http=0.0.0.0:0");
            });
            assertThat(read(err)).doesNotContain("never-logged-7x");
        } finally {
            service.destroy();
            if (!service.waitFor(60, TimeUnit.SECONDS)) {
                service.destroyForcibly();
            }
        }
    }

    @Test
    void askingForTheOpenTelemetryAgentWithoutItStopsAtOnceSayingWhy() throws Exception {
        Path err = dir.resolve("stderr.txt");
        Process process = imageCommand(Map.of("OTEL_JAVAAGENT_ENABLED", "true",
                "OTEL_JAVAAGENT_JAR", dir.resolve("missing.jar").toString())).redirectErrorStream(true)
                .redirectOutput(err.toFile()).start();

        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(64);
        assertThat(read(err)).isEqualTo("agent-outcomes: OTEL_JAVAAGENT_ENABLED=true but there is no agent at "
                + dir.resolve("missing.jar") + "\n");
    }

    private static void waitFor(BooleanSupplier condition, long timeoutMs, Supplier<String> failure) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure.get());
            }
            Thread.sleep(200);
        }
    }

    private static Optional<String> httpUrl(Path out) {
        return read(out).lines().filter(line -> line.contains("HTTP (health)")).findFirst()
                .map(line -> line.substring(line.indexOf("http://"), line.lastIndexOf("/health")));
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
