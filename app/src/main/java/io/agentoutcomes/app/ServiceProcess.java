package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.logging.Logging;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service as a command runs it in this process ({@code run}, {@code demo}): logs in the configured format with the
 * configured secrets hidden, closed cleanly on SIGTERM or Ctrl-C, and a fatal error reported with exit status
 * {@value #FATAL_EXIT} so a supervisor restarts the process.
 */
final class ServiceProcess {
    /** The exit status when the service stops on a fatal error: a supervisor restarts it. */
    static final int FATAL_EXIT = 70;
    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);

    private final AgentOutcomesService service;
    /** Completed with null on SIGTERM, or with the cause of a fatal error. */
    private final CompletableFuture<Throwable> stopped = new CompletableFuture<>();

    private ServiceProcess(AgentOutcomesService service) {
        this.service = service;
        service.fatalError().whenComplete((cause, ignored) -> stopped.complete(cause));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopped.complete(null);
            service.close();
        }, "agent-outcomes-shutdown"));
    }

    static ServiceProcess start(AppConfig config) throws IOException {
        Optional<Path> kafkaLog = kafkaLogFile(config);
        Logging.configure(config.logFormat(), config.secretValues(), kafkaLog);
        kafkaLog.ifPresent(file -> LOG.info("Kafka's own log lines (the embedded broker, the clients, Kafka Streams) go to {}",
                file.toAbsolutePath()));
        return new ServiceProcess(AgentOutcomesService.start(config));
    }

    /**
     * Where Kafka's own log lines go: with the embedded broker, a file under the data directory, so the terminal shows
     * the service's lines, not the broker's start-up warnings and stack traces; with an external Kafka, standard error
     * like the rest (a container's log).
     */
    static Optional<Path> kafkaLogFile(AppConfig config) {
        return config.embeddedKafka() ? Optional.of(config.dataDir().resolve("logs").resolve("kafka.log")) : Optional.empty();
    }

    AgentOutcomesService service() {
        return service;
    }

    /**
     * Waits for SIGTERM (then 0: the shutdown hook closes the service) or a fatal error (then says why in the log and
     * on {@code err}, closes the service and returns {@value #FATAL_EXIT}).
     */
    int awaitStop(PrintWriter err) throws ExecutionException, InterruptedException {
        Throwable cause = stopped.get();
        if (cause == null) {
            return 0;
        }
        LOG.error("agent-outcomes stops on a fatal error, exit status {}: {}", FATAL_EXIT, cause.toString());
        err.println("agent-outcomes: fatal error, stopping (exit status " + FATAL_EXIT + "): " + cause);
        err.flush();
        service.close();
        return FATAL_EXIT;
    }
}
