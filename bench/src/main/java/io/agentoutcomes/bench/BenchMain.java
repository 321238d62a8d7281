package io.agentoutcomes.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The benchmark harness's command line: one suite per subcommand. */
@Command(name = "agent-outcomes-bench", mixinStandardHelpOptions = true,
        description = "Measures the pipeline; reports, never asserts. See docs/benchmarks.md.",
        subcommands = {ThroughputSuite.class, JmhSuite.class, SchedulerSuite.class, LatencySuite.class,
                AllSuites.class})
public final class BenchMain implements Runnable {
    public static void main(String[] args) {
        quietly("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        // warnings every application start repeats, which say nothing about the run
        quietly("org.slf4j.simpleLogger.log.org.apache.kafka.streams.StreamsConfig", "error");
        quietly("org.slf4j.simpleLogger.log.org.apache.kafka.streams.processor.internals.StateDirectory", "error");
        quietly("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "error");
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    private static void quietly(String property, String level) {
        System.setProperty(property, System.getProperty(property, level));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
