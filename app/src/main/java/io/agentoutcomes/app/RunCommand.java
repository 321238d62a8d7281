package io.agentoutcomes.app;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.logging.Logging;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code agent-outcomes run}: starts the service and runs until SIGTERM or Ctrl-C. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Start the pipeline. With no bootstrap servers it runs an embedded Kafka broker (port 9092) "
                + "and schema registry (port 8081), keeping their data under --data-dir.")
final class RunCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Mixin
    private ConfigOptions options;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** The exit status when the service stops on a fatal error: a supervisor restarts it. */
    static final int FATAL_EXIT = 70;

    @Override
    public Integer call() throws Exception {
        AppConfig config = options.load(System.getenv());
        Logging.configure(config.logFormat(), config.secretValues());
        AgentOutcomesService service = AgentOutcomesService.start(config);
        CompletableFuture<Throwable> stopped = new CompletableFuture<>();
        service.fatalError().whenComplete((cause, ignored) -> stopped.complete(cause));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopped.complete(null);
            service.close();
        }, "agent-outcomes-shutdown"));

        PrintWriter out = spec.commandLine().getOut();
        out.println("agent-outcomes is running");
        out.println("  Kafka bootstrap servers : " + service.bootstrapServers() + (config.embeddedKafka() ? " (embedded)" : ""));
        out.println("  Schema registry         : " + service.schemaRegistryUrl() + (config.embeddedRegistry() ? " (embedded)" : ""));
        out.println("  HTTP (health)           : " + service.httpUrl() + "/health");
        if (config.embeddedKafka()) {
            out.println("  Data directory          : " + config.dataDir().toAbsolutePath());
        }
        out.println("Stop with Ctrl-C (SIGTERM); everything closes cleanly.");
        out.flush();
        Throwable cause = stopped.get();
        if (cause == null) {
            return 0;
        }
        LOG.error("agent-outcomes stops on a fatal error, exit status {}: {}", FATAL_EXIT, cause.toString());
        spec.commandLine().getErr().println("agent-outcomes: fatal error, stopping (exit status " + FATAL_EXIT + "): " + cause);
        service.close();
        return FATAL_EXIT;
    }
}
