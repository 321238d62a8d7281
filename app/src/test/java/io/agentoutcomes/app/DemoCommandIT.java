package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agent-outcomes demo} as a person starts it, from the shaded jar in its own process, on the embedded default:
 * it takes the service's logging options as {@code run} does (the log format, secrets hidden), writes its report, and
 * stops on SIGTERM. With a bearer token configured, its fleet and its report's queries present it.
 */
class DemoCommandIT {
    private static final Path JAR = Path.of(System.getProperty("agent-outcomes.jar", "target/agent-outcomes.jar"));
    private static final String SECRET = "never-logged-demo-5q";
    private static final String TOKEN = "demo-http-t0ken-never-logged";

    @TempDir
    Path dir;

    @Test
    void theDemoWritesItsReportWithJsonLogsAndNoSecretThenStopsOnSigterm() throws Exception {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Path report = dir.resolve("report.json");
        Process demo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                JAR.toAbsolutePath().toString(), "demo", "--duration", "5s", "--settle-timeout", "30s",
                "--report-json", report.toString(), "--log-format", "json",
                "-p", "data.dir=" + dir.resolve("data"), "-p", "http.port=0", "-p", "embedded.kafka.port=0",
                "-p", "embedded.registry.port=0", "-p", "topic.partitions=1", "-p", "ssl.truststore.password=" + SECRET,
                "-p", "http.auth.bearer.token=" + TOKEN)
                .directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (!read(out).contains("Report written to") && demo.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(read(out)).as("no report; stderr: " + read(err)).contains("Report written to " + report);
            assertThat(demo.isAlive()).as("the demo stays up for the dashboard").isTrue();

            ObjectMapper json = new ObjectMapper();
            JsonNode written = json.readTree(report.toFile());
            assertThat(written.get("published").asLong()).isPositive();
            assertThat(written.get("publishFailures").asLong()).isZero();
            assertThat(written.get("retriesEarly").asLong()).isZero();
            assertThat(written.get("settled").asBoolean()).isTrue();
            List<String> lines = read(err).lines().toList();
            assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(json.readTree(line).isObject()).as(line).isTrue());
            assertThat(lines).anySatisfy(line -> assertThat(json.readTree(line).get("message").asText())
                    .startsWith("Starting with AppConfig["));
            assertThat(read(err) + read(out)).doesNotContain(SECRET).doesNotContain(TOKEN);
            // the embedded broker's lines (and its clients', Kafka Streams') are in their file, not on the terminal
            assertThat(lines).noneSatisfy(line -> assertThat(json.readTree(line).get("logger_name").asText())
                    .matches("(org\\.apache\\.kafka|kafka|state\\.change\\.logger)(\\..*)?"));
            Path kafkaLog = dir.resolve("data").resolve("logs").resolve("kafka.log");
            assertThat(read(out)).contains("Kafka's log lines       : " + kafkaLog.toAbsolutePath());
            assertThat(read(kafkaLog)).as("a first start's broker warns about its empty metadata log").isNotBlank();
            assertThat(read(kafkaLog).lines().toList()).allSatisfy(line -> assertThat(json.readTree(line).isObject()).isTrue());
            assertThat(read(kafkaLog)).doesNotContain(SECRET).doesNotContain(TOKEN);
            // with credentials required, the demo's fleet and its report's job query present the service's own
            if (written.has("timelineUrl")) {
                assertThat(written.get("busiestJobState").get("jobId").asText()).isNotEmpty();
            }
        } finally {
            demo.destroy();
            if (!demo.waitFor(60, TimeUnit.SECONDS)) {
                demo.destroyForcibly();
            }
        }
        // SIGTERM: the JVM's status for it, after the service closed without a fatal error.
        assertThat(demo.exitValue()).isEqualTo(143);
        assertThat(read(err)).doesNotContainIgnoringCase("fatal error");
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
