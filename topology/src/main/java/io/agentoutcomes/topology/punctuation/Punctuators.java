package io.agentoutcomes.topology.punctuation;

import java.time.Duration;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * The pipeline's punctuators, each scheduled on the wall clock through {@link #schedule}, which tells the
 * application's {@link PunctuationWatch} how each run ended. The label names the punctuator in the meter
 * {@code agent_outcomes_punctuation_failures_total{processor}} and in the log.
 */
public enum Punctuators {
    /** Forwards due retries ({@code retry.scheduler.interval.ms}). */
    RETRY_SCHEDULER("retry-scheduler"),
    /** Releases the retries the provider gate holds, every 100 ms. */
    PROVIDER_GATE("provider-gate"),
    /** Sends each task's tallies of outcomes per provider scope to the gate. */
    PROVIDER_SIGNALS("provider-signals"),
    /** Sweeps expired tasks from the task stores ({@code task.state.sweep.interval.ms}). */
    TASK_CLASSIFIER("task-classifier"),
    /** Sweeps the spend of periods past, every minute. */
    BUDGET_KEEPER("budget-keeper"),
    /** Flushes each task's partial aggregates ({@code analytics.flush.interval.ms}). */
    ANALYTICS_PRE_AGGREGATOR("analytics-pre-aggregator");

    private final String label;

    Punctuators(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Schedules {@code punctuator} every {@code interval} of wall-clock time in the processor's {@code context},
     * telling the watch of the context's application ({@link PunctuationWatch#CONFIG}) how each run ends; a failure
     * is rethrown, for Kafka Streams' processing exception handler.
     */
    public Cancellable schedule(ProcessorContext<?, ?> context, Duration interval, Punctuator punctuator) {
        PunctuationWatch watch = context.appConfigs().get(PunctuationWatch.CONFIG) instanceof PunctuationWatch given
                ? given : PunctuationWatch.NONE;
        TaskId task = context.taskId();
        return context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, timestamp -> {
            try {
                punctuator.punctuate(timestamp);
            } catch (RuntimeException e) {
                watch.failed(this, task, e);
                throw e;
            }
            watch.succeeded(this, task);
        });
    }
}
