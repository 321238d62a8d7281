package io.agentoutcomes.app.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.registry.SchemaRegistryUnavailableException;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stage that cannot make progress is seen (issue 29 item 7): one stage whose punctuator throws, on a
 * TopologyTestDriver with the service's processing exception handler and its {@link PunctuationFailures}; the wall
 * clock advanced one punctuation at a time.
 */
class PunctuationFailuresTest {
    private static final Duration EVERY = Duration.ofMillis(100);
    private static final TaskId TASK = new TaskId(0, 0);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CompletableFuture<Throwable> fatal = new CompletableFuture<>();
    private final PunctuationFailures watch = new PunctuationFailures(registry, 3, fatal::complete);
    /** What each punctuation does in turn: null succeeds, an exception is thrown. */
    private final List<RuntimeException> outcomes = new ArrayList<>();
    private int punctuations;
    private TopologyTestDriver driver;

    private final class Stuck implements Processor<byte[], byte[], byte[], byte[]> {
        @Override
        public void init(ProcessorContext<byte[], byte[]> context) {
            PunctuationWatch.schedule(Punctuators.RETRY_SCHEDULER, context, EVERY, timestamp -> {
                RuntimeException next = punctuations < outcomes.size() ? outcomes.get(punctuations) : null;
                punctuations++;
                if (next != null) {
                    throw next;
                }
            });
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
        }
    }

    private void start() {
        Topology topology = new Topology();
        topology.addSource("in", "in").addProcessor("retry-scheduler", Stuck::new, "in");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "punctuations");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingProcessingHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "rejected-input");
        props.put(PunctuationWatch.CONFIG, watch);
        driver = new TopologyTestDriver(topology, props);
    }

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private void punctuate(int times) {
        for (int i = 0; i < times; i++) {
            driver.advanceWallClockTime(EVERY);
        }
    }

    private double failures() {
        return registry.get("agent_outcomes_punctuation_failures").tag("processor", "retry-scheduler").counter().count();
    }

    @Test
    void aPunctuatorThatThrowsIsCountedAndTheNextPunctuationRuns() {
        outcomes.addAll(List.of(new IllegalStateException("store closed"), new IllegalStateException("store closed")));
        start();

        punctuate(3);

        assertThat(failures()).isEqualTo(2.0);
        assertThat(registry.get("agent_outcomes_punctuation_failures").tag("processor", "provider-gate").counter().count())
                .as("a series for every punctuator from the start").isZero();
        assertThat(watch.run(Punctuators.RETRY_SCHEDULER, TASK)).as("the third punctuation succeeded").isZero();
        assertThat(fatal).isNotDone();
        assertThat(driver.createOutputTopic("rejected-input", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readRecordsToList()).as("no input record to reject").isEmpty();
    }

    @Test
    void aRunOfConsecutiveFailuresIsFatal() {
        for (int i = 1; i <= 5; i++) {
            outcomes.add(new IllegalStateException("store closed " + i));
        }
        start();

        punctuate(2);
        assertThat(fatal).isNotDone();
        punctuate(1);

        assertThat(fatal).isCompleted();
        assertThat(fatal.join()).isInstanceOf(IllegalStateException.class).hasMessage("the punctuator retry-scheduler of "
                + "task 0_0 failed 3 times in a row (punctuation.max.consecutive.failures), the last with: "
                + "java.lang.IllegalStateException: store closed 3").hasCauseInstanceOf(IllegalStateException.class);
        assertThat(failures()).isEqualTo(3.0);
    }

    @Test
    void aSuccessBetweenFailuresStartsTheRunAgain() {
        RuntimeException failure = new IllegalStateException("store closed");
        outcomes.addAll(Arrays.asList(failure, failure, null, failure, failure, null, failure, failure));
        start();

        punctuate(8);

        assertThat(failures()).isEqualTo(6.0);
        assertThat(watch.run(Punctuators.RETRY_SCHEDULER, TASK)).isEqualTo(2);
        assertThat(fatal).as("never three in a row").isNotDone();
    }

    @Test
    void aSchemaRegistryOutageIsCountedButEndsNothing() {
        // told to the watch alone: on an outage the handler fails the stream thread, which is replaced
        for (int i = 0; i < 4; i++) {
            watch.failed(Punctuators.RETRY_SCHEDULER, TASK, new IllegalStateException("flush failed",
                    new SchemaRegistryUnavailableException("registry down", null)));
        }

        assertThat(failures()).isEqualTo(4.0);
        assertThat(watch.run(Punctuators.RETRY_SCHEDULER, TASK)).isZero();
        assertThat(fatal).isNotDone();
    }
}
