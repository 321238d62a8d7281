package io.agentoutcomes.app;

import io.agentoutcomes.app.explain.ExplainCommand;
import io.agentoutcomes.app.redrive.RedriveCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The command line: {@code agent-outcomes run}, {@code demo}, {@code fleet}, {@code explain}, {@code redrive}. */
@Command(name = "agent-outcomes",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Classifies, retries, replays and aggregates the outcomes of AI agent fleets on Kafka.",
        subcommands = {RunCommand.class, DemoCommand.class, FleetCommand.class, ExplainCommand.class,
                RedriveCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with the project's error handling, for tests as for {@link #main}. */
    public static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    cmd.getErr().println("agent-outcomes: " + e.getMessage());
                    return 1;
                });
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"agent-outcomes " + (version == null ? "(development build)" : version)};
        }
    }
}
