package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/** A fatal error of Kafka Streams ends the process with a non-zero exit status. */
class FatalErrorExitTest extends ServiceOnTestBroker {
    @Test
    void aFatalErrorEndsTheProcessWithANonZeroExitStatus() throws Exception {
        AppConfig config = config("fatal");
        Path log = dataDir.resolve("fatal.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx256m", Main.class.getName(), "run",
                "--bootstrap-servers", kafka.bootstrapServers(), "--application-id", config.applicationId(),
                "--topic-prefix", config.topicPrefix(), "--partitions", "1", "--data-dir", dataDir.toString(),
                "--http-port", "0", "-p", "embedded.registry.port=0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            waitForCondition(() -> !process.isAlive() || Files.readString(log).contains("agent-outcomes is running"),
                    60_000, 200, () -> "agent-outcomes is running");
            assertThat(process.isAlive()).as("running; log: %s", Files.readString(log)).isTrue();
            try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
                // A source topic deleted under a running application: Kafka Streams cannot go on.
                admin.deleteTopics(List.of(config.topicPrefix() + "agent-results")).all().get();
            }
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("the process ended").isTrue();
            assertThat(process.exitValue()).isEqualTo(70);
            assertThat(Files.readString(log)).contains("agent-outcomes: fatal error, stopping (exit status 70)");
        } finally {
            process.destroyForcibly();
        }
    }
}
