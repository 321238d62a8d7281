package io.agentoutcomes.app;

import io.agentoutcomes.app.cli.ConfigOptions;
import io.agentoutcomes.app.config.AppConfig;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code agent-outcomes run}: starts the service and runs until SIGTERM or Ctrl-C. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Start the pipeline. With no bootstrap servers it runs an embedded Kafka broker (port 9092) "
                + "and schema registry (port 8081), keeping their data under --data-dir.")
final class RunCommand implements Callable<Integer> {
    @Mixin
    private ConfigOptions options;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        AppConfig config = options.load(System.getenv());
        ServiceProcess process = ServiceProcess.start(config);
        AgentOutcomesService service = process.service();

        PrintWriter out = spec.commandLine().getOut();
        out.println("agent-outcomes is running");
        out.println("  Kafka bootstrap servers : " + service.bootstrapServers() + (config.embeddedKafka() ? " (embedded)" : ""));
        out.println("  Schema registry         : " + service.schemaRegistryUrl() + (config.embeddedRegistry() ? " (embedded)" : ""));
        printHttp(out, service.httpUrl());
        if (config.embeddedKafka()) {
            out.println("  Data directory          : " + config.dataDir().toAbsolutePath());
        }
        ServiceProcess.kafkaLogFile(config).ifPresent(file ->
                out.println("  Kafka's log lines       : " + file.toAbsolutePath()));
        out.println("Stop with Ctrl-C (SIGTERM); everything closes cleanly.");
        out.flush();
        return process.awaitStop(spec.commandLine().getErr());
    }

    /** Where the HTTP API answers, as the README names its pages. */
    static void printHttp(PrintWriter out, String httpUrl) {
        out.println("  Dashboard               : " + httpUrl + "/");
        out.println("  Prometheus metrics      : " + httpUrl + "/metrics");
        out.println("  Jobs                    : " + httpUrl + "/ui/jobs");
        out.println("  Health                  : " + httpUrl + "/health");
    }
}
