package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.topology.ratelimit.WindowLength;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * An exhausted daily rate-limit window (a window a day long, {@link WindowLength}): a daily limit is the one a wait does
 * not fix within the hour. Pure.
 *
 * @param name    the window, e.g. tokens_per_day
 * @param header  the header it was read from, or null
 * @param resetAt when it resets, or null when the provider did not say
 */
public record DailyWindow(String name, String header, Instant resetAt) {

    /** The exhausted daily window that resets last, if any. */
    public static Optional<DailyWindow> exhausted(RateLimitState rateLimit, Instant now) {
        if (rateLimit == null) {
            return Optional.empty();
        }
        return rateLimit.getWindows().stream()
                .filter(w -> w.getRemaining() != null && w.getRemaining() == 0 && WindowLength.isDaily(w))
                .map(w -> new DailyWindow(w.getName(), w.getHeader(), resetAt(w, now)))
                .max(Comparator.comparing(w -> w.resetAt() == null ? Instant.MIN : w.resetAt()));
    }

    private static Instant resetAt(RateLimitWindow window, Instant now) {
        long resetIn = Backoff.resetIn(window, now);
        if (resetIn > 0) {
            long at = now.toEpochMilli() + resetIn;
            return at < now.toEpochMilli() ? Instant.ofEpochMilli(Long.MAX_VALUE) : Instant.ofEpochMilli(at);
        }
        return window.getResetAtMs() == null && window.getResetsInMs() == null ? null : now;
    }

    /** Why the retry is due now, naming the window, its header and its reset. */
    public String why() {
        return "rate-limit window " + name + " exhausted" + (header == null ? "" : " (header " + header + ")")
                + (resetAt == null ? "" : ", resets at " + resetAt) + ": switch provider now";
    }
}
