package io.agentoutcomes.app.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.TestKeystore;
import io.agentoutcomes.app.config.EnvironmentVariables;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's command line, run here without a container engine: the Dockerfile's ENTRYPOINT script with its CMD and
 * ENV, against the shaded jar of this build, on the embedded default (compose points it at brokers this machine does
 * not have). What differs from the image: the jar's path (APP_JAR), the data directory and the ports (0: free ones).
 * The image listens on every interface, so it starts only with credentials and a keystore, given as variables.
 */
class DockerImageCommandIT {
    private static final Path JAR = Path.of(System.getProperty("agent-outcomes.jar", "target/agent-outcomes.jar"));
    private static final String TOKEN = "image-bearer-t0ken-never-logged";
    private static final String USER_INFO = "ops:image-basic-never-logged";

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

    /** The settings of the run: ports and data directory of their own, and the operator's secrets as variables. */
    private Map<String, String> overrides(TestKeystore keystore) {
        Map<String, String> overrides = new HashMap<>(Map.of(
                "AGENT_OUTCOMES_DATA_DIR", dir.resolve("data").toString(),
                "AGENT_OUTCOMES_HTTP_PORT", "0",
                "AGENT_OUTCOMES_EMBEDDED_KAFKA_PORT", "0",
                "AGENT_OUTCOMES_EMBEDDED_REGISTRY_PORT", "0",
                "AGENT_OUTCOMES_LOG_FORMAT", "json",
                "AGENT_OUTCOMES_TOPIC_PARTITIONS", "1",
                "AGENT_OUTCOMES_SSL_TRUSTSTORE_PASSWORD", "never-logged-7x",
                "AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN", TOKEN,
                "AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO", USER_INFO));
        keystore.serverSettings().forEach((setting, value) -> overrides.put(EnvironmentVariables.variable(setting), value));
        return overrides;
    }

    @Test
    void withoutCredentialsAndAKeystoreTheImageRefusesToStartSayingWhatToSet() throws Exception {
        Map<String, String> overrides = overrides(TestKeystore.create(dir));
        overrides.keySet().removeIf(name -> name.startsWith("AGENT_OUTCOMES_HTTP_AUTH_") || name.startsWith("AGENT_OUTCOMES_HTTP_TLS_"));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process service = imageCommand(overrides).redirectOutput(out.toFile()).redirectError(err.toFile()).start();

        assertThat(service.waitFor(60, TimeUnit.SECONDS)).as("still running: " + read(out) + read(err)).isTrue();
        assertThat(service.exitValue()).isEqualTo(1);
        assertThat(read(err)).contains("agent-outcomes: Refusing to start: http.host=0.0.0.0 listens beyond loopback, so "
                + "the HTTP API and the embedded registry require credentials: set http.auth.bearer.token and/or "
                + "http.auth.basic.user.info (AGENT_OUTCOMES_HTTP_AUTH_BEARER_TOKEN, AGENT_OUTCOMES_HTTP_AUTH_BASIC_USER_INFO)")
                .contains("set http.tls.keystore.location and http.tls.keystore.password "
                        + "(AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_LOCATION, AGENT_OUTCOMES_HTTP_TLS_KEYSTORE_PASSWORD)");
        assertThat(read(out)).doesNotContain("is running");
    }

    @Test
    void theImagesCommandLineRunsTheServiceUntilReadyWithJsonLogs() throws Exception {
        TestKeystore keystore = TestKeystore.create(dir);
        Map<String, String> overrides = overrides(keystore);
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process service = imageCommand(overrides).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            waitFor(() -> printedUrl(out, "Health").isPresent() || !service.isAlive(), 120_000,
                    () -> "the service did not say where it listens: " + read(out) + read(err));
            assertThat(service.isAlive()).as("the service stopped: " + read(err)).isTrue();
            // bound to every interface (printed as localhost), over HTTPS: reached here on the loopback
            String printed = printedUrl(out, "Health").orElseThrow();
            assertThat(printed).startsWith("https://");
            String url = "https://127.0.0.1:" + printed.substring(printed.lastIndexOf(':') + 1);
            String registry = printedUrl(out, "Schema registry").orElseThrow();
            assertThat(registry).startsWith("https://localhost:");
            HttpClient https = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).sslContext(keystore.trustingContext()).build();

            waitFor(() -> status(https, url + "/health/ready", Optional.empty()) == 200, 120_000,
                    () -> "not ready: " + read(err));
            assertThat(status(https, url + "/health/live", Optional.empty())).isEqualTo(200);
            // the image's HEALTHCHECK (liveness) and compose's (readiness), on the port the service listens on
            String port = printed.substring(printed.lastIndexOf(':') + 1);
            assertThat(healthcheck(overrides, port)).isZero();
            assertThat(healthcheck(overrides, port, "/health/ready")).isZero();
            assertThat(healthcheck(overrides, port, "/no-such-health")).isNotZero();
            // no data without the credentials; with either of them, the answer
            for (String path : List.of("/jobs", "/jobs/some-job", "/analytics", "/ui/jobs", "/")) {
                assertThat(status(https, url + path, Optional.empty())).as("GET %s without credentials", path).isEqualTo(401);
            }
            assertThat(status(https, url + "/jobs", Optional.of("Bearer " + TOKEN))).isEqualTo(200);
            assertThat(status(https, url + "/jobs/some-job", Optional.of("Basic " + Base64.getEncoder()
                    .encodeToString(USER_INFO.getBytes(StandardCharsets.UTF_8))))).isEqualTo(404);
            HttpResponse<String> write = https.send(HttpRequest.newBuilder(URI.create(registry + "/subjects/x-value/versions"))
                    .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"schema\":\"\\\"string\\\"\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(write.statusCode()).as("a registry write without credentials: " + write.body()).isEqualTo(401);
            assertThat(status(https, registry + "/subjects", Optional.empty())).isEqualTo(200);

            ObjectMapper json = new ObjectMapper();
            List<String> lines = read(err).lines().toList();
            assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(json.readTree(line).isObject()).as(line).isTrue());
            assertThat(lines).anySatisfy(line -> {
                JsonNode event = json.readTree(line);
                assertThat(event.get("message").asText()).startsWith("Starting with AppConfig[").contains("http=0.0.0.0:0");
            });
            assertThat(read(err) + read(out)).doesNotContain("never-logged-7x").doesNotContain(TOKEN)
                    .doesNotContain("image-basic-never-logged").doesNotContain(keystore.password());
        } finally {
            service.destroy();
            if (!service.waitFor(60, TimeUnit.SECONDS)) {
                service.destroyForcibly();
            }
        }
    }

    /**
     * The Dockerfile's HEALTHCHECK command (the repository file its COPY puts there) with the image's ENV and the run's
     * settings, {@code AGENT_OUTCOMES_HTTP_PORT} the port the service listens on; its exit status.
     */
    private int healthcheck(Map<String, String> overrides, String port, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of("..").resolve(image.sourceOf(image.healthcheck().get(0))).toAbsolutePath().toString());
        command.addAll(image.healthcheck().subList(1, image.healthcheck().size()));
        command.addAll(List.of(args));
        ProcessBuilder check = new ProcessBuilder(command).redirectErrorStream(true);
        check.environment().putAll(image.env());
        check.environment().putAll(overrides);
        check.environment().put("AGENT_OUTCOMES_HTTP_PORT", port);
        Process process = check.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(output).isTrue();
        return process.exitValue();
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

    /** The URL of a line of what {@code run} prints ("  Health : https://localhost:1234/health"), without its path. */
    private static Optional<String> printedUrl(Path out, String label) {
        Pattern labelled = Pattern.compile("^\\s*" + Pattern.quote(label) + "\\s*: ");
        return read(out).lines().filter(line -> labelled.matcher(line).find()).findFirst()
                .map(line -> line.substring(line.indexOf("http")).replaceAll("(https?://[^/ ]+).*", "$1"));
    }

    private static int status(HttpClient client, String url, Optional<String> authorization) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
            authorization.ifPresent(value -> request.header("Authorization", value));
            return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
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
