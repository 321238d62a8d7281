package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.topology.schedule.PendingRetryKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A stage that cannot make progress ends the process (issue 29 item 7), as every fatal error does: the retry
 * scheduler's store restored with an entry it cannot read (one byte, long due), so each of its checks throws; after
 * {@code punctuation.max.consecutive.failures} of them in a row the process exits with status 70.
 */
class PunctuationFailureExitTest extends ServiceOnTestBroker {
    @Test
    void aPunctuatorThatKeepsFailingEndsTheProcessWithExitStatus70() throws Exception {
        AppConfig config = config("stuck");
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            String changelog = config.applicationId() + "-retry-pending-changelog";
            admin.createTopics(List.of(new NewTopic(changelog, Optional.of(1), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact")))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig(), new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(changelog, PendingRetryKey.firstDueAt(0).get(), new byte[] {1})).get();
            }
        }
        Path log = dataDir.resolve("stuck.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-Xmx256m", Main.class.getName(), "run",
                "--bootstrap-servers", kafka.bootstrapServers(), "--application-id", config.applicationId(),
                "--topic-prefix", config.topicPrefix(), "--partitions", "1", "--data-dir", dataDir.toString(),
                "--http-port", "0", "-p", "embedded.registry.port=0", "-p", "punctuation.max.consecutive.failures=5")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the process ended").isTrue();
            assertThat(process.exitValue()).isEqualTo(70);
            String output = Files.readString(log);
            assertThat(output).contains("The punctuator retry-scheduler of task 4_0 failed 5 times in a row")
                    .contains("agent-outcomes: fatal error, stopping (exit status 70): java.lang.IllegalStateException: "
                            + "the punctuator retry-scheduler of task 4_0 failed 5 times in a row")
                    .contains("Punctuation failed, processor node: ");
        } finally {
            process.destroyForcibly();
        }
    }
}
