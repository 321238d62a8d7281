package io.agentoutcomes.app.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A JVM the suite starts from the shaded jar (a broker or the service), its output in a log file. Every one started is
 * remembered, so a shutdown hook kills what a failed test left running: no broker or app outlives the test JVM.
 */
final class ManagedProcess implements AutoCloseable {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "faults-kill-all"));
    }

    private final String name;
    private final Process process;
    private final Path log;

    private ManagedProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code java <jvmOptions> <args>} with the jar on the class path; stdout and stderr are appended to
     * {@code log}, so restarts of the same node or instance add to one file.
     */
    static ManagedProcess start(String name, Path log, List<String> jvmOptions, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(args);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "\n=== start " + name + ": " + String.join(" ", command) + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        LIVE.add(process);
        return new ManagedProcess(name, process, log);
    }

    /** The shaded jar under test: {@code app/target/agent-outcomes.jar}, set by failsafe. */
    static Path jar() {
        Path jar = Path.of(System.getProperty("agent-outcomes.jar", "target/agent-outcomes.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No shaded jar at " + jar + ": run through `./mvnw verify` (package first)");
        }
        return jar;
    }

    /**
     * JVM options that keep a process light on a 2-core machine shared by several JVMs; the stack keeps its default
     * size, so deeply nested input fails (or not) as it would in production.
     */
    static List<String> lightJvm(String heap) {
        List<String> options = new ArrayList<>(List.of("-Xmx" + heap, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError"));
        options.addAll(kafkaLogLevel());
        return options;
    }

    /**
     * {@code -Dfault.kafka.log.level=INFO} on the build's command line: Kafka's own lines (rebalances, restores,
     * transactions, the brokers' coordinators) in every process's log, at that level; none by default.
     */
    static List<String> kafkaLogLevel() {
        String level = System.getProperty("fault.kafka.log.level");
        return level == null ? List.of() : List.of("-Dagent-outcomes.kafka.log.level=" + level);
    }

    /** SIGKILL: no shutdown hook, no clean close, no flush. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(process);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String name() {
        return name;
    }

    Path log() {
        return log;
    }

    /** Kills the process if it still runs (SIGKILL: the suite never needs a clean stop to tear down). */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
        LIVE.remove(process);
    }
}
