package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
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

    @Test
    void everyFlagOfTheSettingsTableSetsItsSetting() {
        Map<String, String> values = Map.of("--bootstrap-servers", "broker:9092", "--schema-registry-url", "http://registry:8081",
                "--application-id", "app-x", "--topic-prefix", "p-", "--partitions", "3", "--data-dir", "d",
                "--http-host", "0.0.0.0", "--http-port", "9999", "--log-format", "json");
        ConfigOptions.FLAGS.forEach((setting, flag) -> {
            ConfigOptions options = new ConfigOptions();
            new CommandLine(options).parseArgs(flag, values.get(flag));

            assertThat(options.flagSettings()).as(flag).containsExactly(Map.entry(setting, values.get(flag)));
        });
        assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(ConfigOptions.FLAGS.values());
    }
}
