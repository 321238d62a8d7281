package io.agentoutcomes.topology.punctuation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.junit.jupiter.api.Test;

/** A scheduled punctuation tells the application's watch how it ended; a failure still reaches Kafka Streams. */
class PunctuatorsTest {
    private final List<String> told = new ArrayList<>();
    private final PunctuationWatch watch = new PunctuationWatch() {
        @Override
        public void succeeded(Punctuators punctuator, TaskId task) {
            told.add("succeeded " + punctuator.label() + " " + task);
        }

        @Override
        public void failed(Punctuators punctuator, TaskId task, RuntimeException failure) {
            told.add("failed " + punctuator.label() + " " + task + ": " + failure.getMessage());
        }
    };

    private MockProcessorContext<Object, Object> context(Object watch) {
        Properties config = new Properties();
        if (watch != null) {
            config.put(PunctuationWatch.CONFIG, watch);
        }
        return new MockProcessorContext<>(config, new TaskId(2, 1), null);
    }

    @Test
    void aPunctuationThatThrowsIsToldToTheWatchAndRethrown() {
        MockProcessorContext<Object, Object> context = context(watch);
        PunctuationWatch.schedule(Punctuators.RETRY_SCHEDULER, context, Duration.ofMillis(100), timestamp -> {
            throw new IllegalStateException("store closed at " + timestamp);
        });
        CapturedPunctuator scheduled = context.scheduledPunctuators().get(0);

        assertThatThrownBy(() -> scheduled.getPunctuator().punctuate(1_000L)).isInstanceOf(IllegalStateException.class)
                .hasMessage("store closed at 1000");
        assertThat(told).containsExactly("failed retry-scheduler 2_1: store closed at 1000");
        assertThat(scheduled.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
        assertThat(scheduled.getInterval()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aPunctuationThatEndsIsToldAsASuccess() {
        MockProcessorContext<Object, Object> context = context(watch);
        List<Long> ran = new ArrayList<>();
        PunctuationWatch.schedule(Punctuators.PROVIDER_GATE, context, Duration.ofSeconds(1), ran::add);

        context.scheduledPunctuators().get(0).getPunctuator().punctuate(5L);

        assertThat(ran).containsExactly(5L);
        assertThat(told).containsExactly("succeeded provider-gate 2_1");
    }

    @Test
    void withoutAWatchAPunctuationRunsAndFailsAsBefore() {
        MockProcessorContext<Object, Object> context = context(null);
        PunctuationWatch.schedule(Punctuators.ANALYTICS_PRE_AGGREGATOR, context, Duration.ofSeconds(1), timestamp -> {
            throw new IllegalStateException("no");
        });

        assertThatThrownBy(() -> context.scheduledPunctuators().get(0).getPunctuator().punctuate(1L))
                .isInstanceOf(IllegalStateException.class);
        assertThat(told).isEmpty();
    }
}
