package io.agentoutcomes.avro.registry;

import java.time.Duration;

/**
 * How a registry client calls: how long connecting and one request may take, and how a registry that cannot be
 * reached (or answers 5xx, 408, 429) is retried.
 *
 * @param connectTimeout how long connecting may take
 * @param requestTimeout how long one request may take, answer included
 * @param attempts       tries per call (at least 1)
 * @param initialBackoff the wait after the first failed try; doubled after each further one
 * @param maxBackoff     the longest wait between tries
 */
public record RegistryCalls(Duration connectTimeout, Duration requestTimeout, int attempts, Duration initialBackoff,
                            Duration maxBackoff) {

    public RegistryCalls {
        attempts = Math.max(1, attempts);
    }

    /** The wait before try {@code retry + 1} (0: after the first failure): doubled each time, at most {@link #maxBackoff}. */
    public Duration backoff(int retry) {
        Duration wait = initialBackoff;
        for (int i = 0; i < retry && wait.compareTo(maxBackoff) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
