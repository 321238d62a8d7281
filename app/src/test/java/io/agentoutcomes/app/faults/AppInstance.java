package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service as its own process ({@code java -jar agent-outcomes.jar run}), on the suite's brokers, with fixed HTTP
 * and registry ports so a restart is the same instance: same data directory, same {@code application.server}.
 */
final class AppInstance implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path dataDir;
    private final int httpPort;
    private final int registryPort;
    private final List<String> args;
    private ManagedProcess process;
    private int starts;

    private AppInstance(String name, Path dataDir, List<String> args, int httpPort, int registryPort) {
        this.name = name;
        this.dataDir = dataDir;
        this.args = args;
        this.httpPort = httpPort;
        this.registryPort = registryPort;
    }

    /**
     * @param registryUrl empty: this instance runs the embedded registry (on a port of its own); otherwise the URL of
     *                    the first instance's registry
     * @param settings    {@code -p} settings (policy, backoff, analytics, client overrides)
     */
    static AppInstance create(String name, Path workDir, String bootstrapServers, Optional<String> registryUrl,
                              String applicationId, Map<String, String> settings) throws IOException {
        int httpPort = freePort();
        int registryPort = freePort();
        Path dataDir = workDir.resolve(name + "-data");
        List<String> args = new ArrayList<>(List.of("run", "--bootstrap-servers", bootstrapServers,
                "--application-id", applicationId, "--data-dir", dataDir.toString(), "--http-port", String.valueOf(httpPort)));
        registryUrl.ifPresent(url -> args.addAll(List.of("--schema-registry-url", url)));
        Map<String, String> all = new LinkedHashMap<>();
        all.put("embedded.registry.port", String.valueOf(registryPort));
        all.putAll(settings);
        all.forEach((key, value) -> args.addAll(List.of("-p", key + "=" + value)));
        return new AppInstance(name, dataDir, List.copyOf(args), httpPort, registryPort);
    }

    /** Starts the process (again, after a kill: same data directory and ports). */
    AppInstance start(Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of("-jar", ManagedProcess.jar().toString()));
        command.addAll(args);
        process = ManagedProcess.start(name, log, ManagedProcess.lightJvm("384m"), command);
        starts++;
        return this;
    }

    /** Polls {@code GET /health} until it answers 200 (Kafka Streams RUNNING); returns how long that took. */
    Duration awaitHealthy(Duration timeout) throws InterruptedException {
        long begin = System.nanoTime();
        long deadline = begin + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited before it was healthy; see " + process.log());
            }
            try {
                HttpResponse<String> response = get("/health");
                if (response.statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - begin);
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " not healthy within " + timeout + ": " + last + "; see " + process.log());
    }

    /** The answer to {@code GET path}, or the IOException of an instance that does not answer. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(httpUrl() + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The Kafka Streams state /health reports, or {@code DOWN(no answer)} when the process does not answer. */
    String healthState() throws InterruptedException {
        try {
            return get("/health").body();
        } catch (IOException e) {
            return "no answer: " + e;
        }
    }

    void kill() {
        process.kill();
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    String httpUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    String registryUrl() {
        return "http://127.0.0.1:" + registryPort;
    }

    Path log() {
        return process.log();
    }

    Path dataDir() {
        return dataDir;
    }

    int starts() {
        return starts;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
