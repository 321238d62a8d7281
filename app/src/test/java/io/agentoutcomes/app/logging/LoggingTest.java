package io.agentoutcomes.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.app.config.LogFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class LoggingTest {
    private static final Logger LOG = LoggerFactory.getLogger("io.agentoutcomes.app.AgentOutcomesService");
    private static final String JAAS_PASSWORD = "pa55word-xyz";
    private static final String TRUSTSTORE_PASSWORD = "tru5t-pass";
    private static final String REGISTRY_PASSWORD = "r3g-pass";
    private static final String HTTP_TOKEN = "http-t0ken-abcdef";
    private static final String HTTP_PASSWORD = "http-pa55-ghij";
    private static final String KEYSTORE_PASSWORD = "keyst0re-klmn";

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private final AppConfig config = ConfigLoader.load(Optional.empty(), Map.of(), Map.of(
            "sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"svc\" password=\""
                    + JAAS_PASSWORD + "\";",
            "ssl.truststore.password", TRUSTSTORE_PASSWORD,
            "basic.auth.user.info", "registry-user:" + REGISTRY_PASSWORD,
            "security.protocol", "SASL_SSL",
            "http.auth.bearer.token", HTTP_TOKEN,
            "http.auth.basic.user.info", "ops:" + HTTP_PASSWORD,
            "http.tls.keystore.location", "/etc/agent-outcomes/http.p12",
            "http.tls.keystore.password", KEYSTORE_PASSWORD));

    @BeforeEach
    void captureStandardError() {
        originalErr = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        LogMasking.hide(Set.of());
        Logging.reset();
    }

    @Test
    void jsonModeWritesOneJsonObjectPerLine() throws Exception {
        Logging.configure(LogFormat.JSON, config.secretValues());

        LOG.info("Starting with {}", config);
        LOG.warn("a message\nover two lines");
        LOG.error("failed", new IllegalStateException("boom"));

        List<String> lines = output().lines().toList();
        assertThat(lines).hasSize(3);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> events = lines.stream().map(line -> {
            try {
                return json.readTree(line);
            } catch (Exception e) {
                throw new AssertionError("not one JSON object: " + line, e);
            }
        }).toList();
        assertThat(events).allSatisfy(event -> {
            assertThat(event.isObject()).isTrue();
            assertThat(event.get("logger_name").asText()).isEqualTo("io.agentoutcomes.app.AgentOutcomesService");
            assertThat(event.has("@timestamp")).isTrue();
        });
        assertThat(events.get(0).get("level").asText()).isEqualTo("INFO");
        assertThat(events.get(0).get("message").asText()).startsWith("Starting with AppConfig[").contains("security.protocol=SASL_SSL");
        assertThat(events.get(1).get("message").asText()).isEqualTo("a message\nover two lines");
        assertThat(events.get(2).get("level").asText()).isEqualTo("ERROR");
        assertThat(events.get(2).get("stack_trace").asText()).startsWith("java.lang.IllegalStateException: boom");
    }

    @Test
    void textModeWritesTheLevelLoggerAndMessage() {
        Logging.configure(LogFormat.TEXT, config.secretValues());

        LOG.info("Starting with {}", config);

        assertThat(output().lines().toList()).singleElement().asString()
                .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4} INFO  AgentOutcomesService - Starting with AppConfig\\[.*");
    }

    @Test
    void kafkasOwnLinesAreAtWarnUnlessTheKafkaLogLevelPropertySaysOtherwise() {
        Logger streams = LoggerFactory.getLogger("org.apache.kafka.streams.processor.internals.StreamThread");
        Logger coordinator = LoggerFactory.getLogger("kafka.coordinator.transaction.TransactionCoordinator");
        Logging.configure(LogFormat.TEXT, config.secretValues());
        streams.info("below WARN: nowhere");
        coordinator.info("below WARN: nowhere either");
        assertThat(output()).isEmpty();

        System.setProperty("agent-outcomes.kafka.log.level", "INFO");
        try {
            Logging.configure(LogFormat.TEXT, config.secretValues());
            streams.info("State transition from PARTITIONS_ASSIGNED to RUNNING");
            coordinator.info("Completed rollback of ongoing transaction");
            streams.debug("below INFO: nowhere");
        } finally {
            System.clearProperty("agent-outcomes.kafka.log.level");
        }
        assertThat(output().lines().toList()).hasSize(2).satisfiesExactly(
                line -> assertThat(line).endsWith("INFO  StreamThread - State transition from PARTITIONS_ASSIGNED to RUNNING"),
                line -> assertThat(line).endsWith("INFO  TransactionCoordinator - Completed rollback of ongoing transaction"));
    }

    @ParameterizedTest
    @EnumSource(LogFormat.class)
    void noConfiguredSecretReachesALogLineInEitherFormat(LogFormat format) {
        Logging.configure(format, config.secretValues());

        LOG.info("Starting with {}", config);
        LOG.warn("a library quoting a setting: password={} truststore={}", JAAS_PASSWORD, TRUSTSTORE_PASSWORD);
        LOG.error("login failed", new SecurityException("bad credentials registry-user:" + REGISTRY_PASSWORD));

        LOG.warn("a request with Authorization: Bearer {} / Basic {}", HTTP_TOKEN, Base64.getEncoder()
                .encodeToString(("ops:" + HTTP_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        LOG.warn("keystore password {}, user info ops:{}", KEYSTORE_PASSWORD, HTTP_PASSWORD);

        assertThat(output()).doesNotContain(JAAS_PASSWORD, TRUSTSTORE_PASSWORD, REGISTRY_PASSWORD, HTTP_TOKEN, HTTP_PASSWORD,
                        KEYSTORE_PASSWORD, "b3BzOmh0dHAtcGE1NS1naGlq")
                .contains("password=[hidden] truststore=[hidden]", "sasl.jaas.config=[hidden]", "bad credentials [hidden]",
                        "Authorization: Bearer [hidden] / Basic [hidden]", "keystore password [hidden], user info [hidden]");
    }

    /** With the embedded broker (run, demo): Kafka's own lines in their file, standard error the service's own. */
    @ParameterizedTest
    @EnumSource(LogFormat.class)
    void kafkasOwnLinesGoToTheirFileAndStandardErrorKeepsTheServicesOwn(LogFormat format,
            @TempDir Path dir) throws Exception {
        Path file = dir.resolve("data").resolve("logs").resolve("kafka.log");
        Logging.configure(format, config.secretValues(), Optional.of(file));

        LOG.info("Starting with {}", config);
        LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").warn("Connection to node -1 could not be established");
        LoggerFactory.getLogger("kafka.server.BrokerServer").error("a broker error quoting password={}", JAAS_PASSWORD,
                new IllegalStateException("broker trace"));
        LoggerFactory.getLogger("state.change.logger").warn("a state change");
        LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").debug("below the level: nowhere");

        assertThat(output().lines().toList()).singleElement().asString().contains("Starting with AppConfig[");
        String kafka = Files.readString(file);
        assertThat(kafka).contains("Connection to node -1 could not be established", "a broker error quoting password=[hidden]",
                "java.lang.IllegalStateException: broker trace", "a state change").doesNotContain(JAAS_PASSWORD, "below the level");
        if (format == LogFormat.JSON) {
            ObjectMapper json = new ObjectMapper();
            assertThat(kafka.lines().toList()).hasSize(3).allSatisfy(line -> assertThat(json.readTree(line).isObject()).isTrue());
        }
    }

    private String output() {
        System.err.flush();
        return captured.toString(StandardCharsets.UTF_8);
    }
}
