package io.agentoutcomes.topology.punctuation;

/**
 * The pipeline's punctuators, each scheduled on the wall clock through {@code PunctuationWatch.schedule}, which tells
 * the application's watch how each run ended. The label names the punctuator in the meter
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
}
