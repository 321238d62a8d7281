package io.agentoutcomes.avro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.registry.RegistryCalls;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Confluent's names of the registry client's retries and timeouts, with and without schema.registry., as aliases. */
class ConfluentClientNamesTest {
    private static final String URL = "http://registry:8081";

    @Test
    void withoutAnyTheDefaultsAreTheProjects() {
        assertThat(AvroSerdeConfig.from(Map.of("schema.registry.url", URL)).calls()).isEqualTo(new RegistryCalls(
                Duration.ofSeconds(10), Duration.ofSeconds(10), 6, Duration.ofMillis(200), Duration.ofMillis(Long.MAX_VALUE)));
    }

    @Test
    void confluentsNamesSetTimeoutsAndRetries() {
        AvroSerdeConfig config = AvroSerdeConfig.from(Map.of("schema.registry.url", URL, "http.connect.timeout.ms", "1500",
                "http.read.timeout.ms", "4000", "max.retries", "2", "retries.wait.ms", "50", "retries.max.wait.ms", "300"));

        assertThat(config.calls()).isEqualTo(new RegistryCalls(Duration.ofMillis(1500), Duration.ofMillis(4000), 3,
                Duration.ofMillis(50), Duration.ofMillis(300)));
    }

    @Test
    void confluentsNamesUnderTheClientNamespaceSetTheSame() {
        AvroSerdeConfig config = AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "schema.registry.http.connect.timeout.ms", "1500", "schema.registry.http.read.timeout.ms", "4000",
                "schema.registry.max.retries", "0", "schema.registry.retries.wait.ms", "50",
                "schema.registry.retries.max.wait.ms", "300"));

        assertThat(config.calls()).isEqualTo(new RegistryCalls(Duration.ofMillis(1500), Duration.ofMillis(4000), 1,
                Duration.ofMillis(50), Duration.ofMillis(300)));
    }

    @Test
    void theProjectsNamesAndConfluentsAgreeOrAreRefused() {
        assertThat(AvroSerdeConfig.from(Map.of("schema.registry.url", URL, "schema.registry.request.timeout.ms", "4000",
                "http.read.timeout.ms", "4000")).calls().requestTimeout()).isEqualTo(Duration.ofMillis(4000));
        assertThatThrownBy(() -> AvroSerdeConfig.from(Map.of("schema.registry.url", URL,
                "schema.registry.retry.backoff.ms", "100", "retries.wait.ms", "250")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Settings schema.registry.retry.backoff.ms and retries.wait.ms name the same thing and disagree "
                        + "(100 and 250): set one");
    }

    @Test
    void schemaRegistryRequestAttemptsWinsOverMaxRetriesWhenBothAreGiven() {
        assertThat(AvroSerdeConfig.from(Map.of("schema.registry.url", URL, "schema.registry.request.attempts", "4",
                "max.retries", "9")).calls().attempts()).isEqualTo(4);
    }

    @Test
    void aNegativeRetryCountIsRefusedByName() {
        assertThatThrownBy(() -> AvroSerdeConfig.from(Map.of("schema.registry.url", URL, "max.retries", "-1")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value -1 for configuration max.retries: must be at least 0");
    }

    @Test
    void theWaitBetweenTriesDoublesUpToRetriesMaxWait() {
        RegistryCalls calls = new RegistryCalls(Duration.ofSeconds(1), Duration.ofSeconds(1), 6, Duration.ofMillis(200),
                Duration.ofMillis(500));

        assertThat(calls.backoff(0)).isEqualTo(Duration.ofMillis(200));
        assertThat(calls.backoff(1)).isEqualTo(Duration.ofMillis(400));
        assertThat(calls.backoff(2)).isEqualTo(Duration.ofMillis(500));
        assertThat(calls.backoff(5)).isEqualTo(Duration.ofMillis(500));
    }
}
