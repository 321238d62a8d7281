package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams reaches RUNNING on its stream thread, which binds the client metrics; a service closing at that moment
 * had already closed the binder, whose refusal then ended the instance as a fatal error (seen in a test's log:
 * RejectedExecutionException from KafkaStreamsMetrics.bindTo in StreamThread.checkStateUpdater).
 */
class StreamsMetricsBindingTest {
    @TempDir
    Path stateDir;

    private KafkaStreams streams;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void createStreams() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "binding-test");
        // Never started: no connection is made.
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        streams = new KafkaStreams(builder.build(), props);
    }

    @AfterEach
    void closeStreams() {
        streams.close();
    }

    @Test
    void bindsOnTheFirstRunningOnly() {
        try (StreamsMetricsBinding binding = new StreamsMetricsBinding(streams, registry)) {
            binding.onChange(KafkaStreams.State.REBALANCING);
            assertThat(binding.bound()).isFalse();
            assertThat(registry.getMeters()).isEmpty();

            binding.onChange(KafkaStreams.State.RUNNING);
            assertThat(binding.bound()).isTrue();
            int meters = registry.getMeters().size();
            assertThat(meters).isPositive();
            assertThat(registry.getMeters()).allMatch(meter -> meter.getId().getName().startsWith("kafka."));

            binding.onChange(KafkaStreams.State.REBALANCING);
            binding.onChange(KafkaStreams.State.RUNNING);
            assertThat(registry.getMeters()).hasSize(meters);
        }
    }

    @Test
    void runningAfterCloseBindsNothingAndThrowsNothing() {
        StreamsMetricsBinding binding = new StreamsMetricsBinding(streams, registry);
        binding.close();

        binding.onChange(KafkaStreams.State.RUNNING);

        assertThat(binding.bound()).isFalse();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void aClosedBinderRefusesToBind() {
        // What the stream thread met before: the binder closed by the service, then bound at RUNNING.
        KafkaStreamsMetrics binder = new KafkaStreamsMetrics(streams);
        binder.close();
        assertThatThrownBy(() -> binder.bindTo(registry)).isInstanceOf(RejectedExecutionException.class);
    }
}
