package io.agentoutcomes.app.streams;

import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.TaskId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stage that cannot make progress is seen: every failed punctuation is counted in
 * {@code agent_outcomes_punctuation_failures_total{processor}} (a series per punctuator from the start), and a run of
 * {@code punctuation.max.consecutive.failures} failures of one punctuator in one task, with no success between, is
 * fatal: {@code onFatal} is told, and the process ends with exit status 70 for its supervisor to restart it. Kafka
 * Streams' handler resumes after each failure (it is logged as a WARN), so without this a punctuator that always
 * throws would only fill the log. A schema registry outage is counted but runs no one down: it passes, and the stream
 * thread is replaced meanwhile ({@link StreamThreadFailureHandler}).
 */
public final class PunctuationFailures implements PunctuationWatch {
    public static final String METER = "agent_outcomes_punctuation_failures";
    private static final Logger LOG = LoggerFactory.getLogger(PunctuationFailures.class);

    private final int maxConsecutive;
    private final Consumer<Throwable> onFatal;
    private final Map<Punctuators, Counter> failures = new EnumMap<>(Punctuators.class);
    /** The current run of failures per punctuator and task; absent once one succeeds. */
    private final Map<Run, Integer> runs = new ConcurrentHashMap<>();

    private record Run(Punctuators punctuator, TaskId task) {
    }

    public PunctuationFailures(MeterRegistry registry, int maxConsecutive, Consumer<Throwable> onFatal) {
        if (maxConsecutive < 1) {
            throw new IllegalArgumentException("maxConsecutive must be at least 1, was " + maxConsecutive);
        }
        this.maxConsecutive = maxConsecutive;
        this.onFatal = onFatal;
        for (Punctuators punctuator : Punctuators.values()) {
            failures.put(punctuator, Counter.builder(METER).tag("processor", punctuator.label())
                    .description("Scheduled punctuations that threw (the stage made no progress that time)").register(registry));
        }
    }

    @Override
    public void succeeded(Punctuators punctuator, TaskId task) {
        if (!runs.isEmpty()) {
            runs.remove(new Run(punctuator, task));
        }
    }

    @Override
    public void failed(Punctuators punctuator, TaskId task, RuntimeException failure) {
        failures.get(punctuator).increment();
        if (Failures.isRegistryOutage(failure)) {
            return;
        }
        int run = runs.merge(new Run(punctuator, task), 1, Integer::sum);
        if (run == maxConsecutive) {
            LOG.error("The punctuator {} of task {} failed {} times in a row (punctuation.max.consecutive.failures): "
                    + "its stage makes no progress; ending this instance", punctuator.label(), task, run, failure);
            onFatal.accept(new IllegalStateException("the punctuator " + punctuator.label() + " of task " + task
                    + " failed " + run + " times in a row (punctuation.max.consecutive.failures), the last with: " + failure,
                    failure));
        }
    }

    /** The current run of failures of a punctuator in a task (0 after a success). */
    int run(Punctuators punctuator, TaskId task) {
        return runs.getOrDefault(new Run(punctuator, task), 0);
    }
}
