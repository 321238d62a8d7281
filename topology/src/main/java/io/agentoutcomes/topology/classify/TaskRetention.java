package io.agentoutcomes.topology.classify;

import java.time.Duration;

/**
 * How long the classifier remembers a task (its counts and recent result ids, the de-duplication horizon), and how
 * the expired are swept from its store.
 *
 * @param retention     a task is forgotten this long after its last completion; a retried task this long after its
 *                      retry is due. A duplicate of a result inside the horizon is processed once; after it, as new.
 * @param sweepInterval how often (wall clock) a sweep looks for expired tasks
 * @param minPerSweep   how many entries a sweep examines at least; it examines four entries per task added since
 *                      the last sweep if that is more, so sweeping keeps pace with any rate of new tasks
 */
public record TaskRetention(Duration retention, Duration sweepInterval, int minPerSweep) {
    /** A week: longer than any retry may wait ({@code retry.max.delay.ms}, a day by default) and any re-send seen. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(30);
    public static final int DEFAULT_MIN_PER_SWEEP = 10_000;

    public TaskRetention {
        if (retention.isNegative() || retention.isZero() || sweepInterval.isNegative() || sweepInterval.isZero()
                || minPerSweep < 1) {
            throw new IllegalArgumentException("a task's retention, sweep interval and entries per sweep must be positive; got "
                    + retention + ", " + sweepInterval + ", " + minPerSweep);
        }
    }

    public static TaskRetention defaults() {
        return new TaskRetention(DEFAULT_RETENTION, DEFAULT_SWEEP_INTERVAL, DEFAULT_MIN_PER_SWEEP);
    }

    /** Until when a task is remembered after an outcome classified at {@code classifiedAtMs}, retried after {@code delayMs}. */
    long expiresAt(long classifiedAtMs, long delayMs) {
        return saturatedAdd(saturatedAdd(classifiedAtMs, delayMs), retention.toMillis());
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
