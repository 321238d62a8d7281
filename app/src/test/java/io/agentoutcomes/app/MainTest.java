package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void runHelpListsTheConfigurationFlags() {
        assertThat(run("run", "--help")).isZero();
        assertThat(out.toString()).contains("--bootstrap-servers", "--schema-registry-url", "--data-dir", "--config",
                "--property=KEY=VALUE", "--http-port");
    }

    @Test
    void aMalformedFlagIsAUsageError() {
        assertThat(run("run", "--http-port", "eighty")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '--http-port': 'eighty' is not an int");
    }

    @Test
    void anInvalidSettingStopsTheRunWithItsReason() {
        assertThat(run("run", "-p", "topic.replication.factor=0")).isEqualTo(1);
        assertThat(err.toString()).isEqualTo("agent-outcomes: topic.replication.factor must be -1 (broker default) "
                + "or at least 1, was 0" + System.lineSeparator());
    }
}
