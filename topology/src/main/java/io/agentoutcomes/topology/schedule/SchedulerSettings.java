package io.agentoutcomes.topology.schedule;

import java.time.Duration;

/**
 * How the retry scheduler works through its store: how often it checks the wall clock for due retries, and how many
 * due retries one check forwards at most (the next check resumes there).
 */
public record SchedulerSettings(Duration checkInterval, int maxPerCheck) {
    /** How often the wall clock is checked for due retries, by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofMillis(20);
    /** How many due retries one check forwards at most, by default. */
    public static final int DEFAULT_MAX_PER_CHECK = 10_000;

    public SchedulerSettings {
        if (checkInterval.isZero() || checkInterval.isNegative() || maxPerCheck < 1) {
            throw new IllegalArgumentException("the retry scheduler needs a positive check interval and at least one retry "
                    + "per check");
        }
    }

    /** A check every 20 ms, at most 10 000 retries each. */
    public static SchedulerSettings defaults() {
        return new SchedulerSettings(DEFAULT_CHECK_INTERVAL, DEFAULT_MAX_PER_CHECK);
    }
}
