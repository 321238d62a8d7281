package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.topology.ratelimit.WindowLength;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

/**
 * How long a retry waits, as a small immutable value (in the manner of Temporal's RetryPolicy):
 * {@code min(base(code) * multiplier^attempt, cap)} with each code's base and a 30 s cap. A provider's
 * {@code retry_after}, or the reset of an exhausted rate-limit window, raises the delay to at least that,
 * cap or not. Optional {@link Jitter} spreads the computed delay, before the provider's wait is applied, so never below
 * what the provider asked.
 *
 * @param bases      base delay per code; codes not listed use {@code defaultBase}
 * @param defaultBase the base of a code with none of its own: 2 s
 * @param cap        the longest computed delay: 30 s
 * @param multiplier growth per attempt: 2
 * @param jitter     how the computed delay is spread: {@link Jitter#NONE} by default
 */
public record Backoff(Map<ErrorCode, Duration> bases, Duration defaultBase, Duration cap, double multiplier, Jitter jitter) {

    /** Seed 003's wait for an exhausted hourly window that does not say when it resets. */
    static final long HOURLY_DEFAULT_MS = 3_600_000;
    /** Seed 003's wait for an exhausted minute window that does not say when it resets, without a retry_after. */
    static final long MINUTE_DEFAULT_MS = 60_000;

    /** A delay and why it is that long. */
    public record Delay(Duration duration, String why) {
    }

    public Backoff {
        bases = Map.copyOf(bases);
        if (multiplier < 1 || jitter == null || cap.isNegative() || defaultBase.isNegative()) {
            throw new IllegalArgumentException("backoff needs multiplier >= 1, a jitter and non-negative delays");
        }
    }

    /** Each code's own base ({@link ErrorCode#backoffBase}), else 2 s; doubling per attempt; cap 30 s; no jitter. */
    public static Backoff defaults() {
        Map<ErrorCode, Duration> bases = new EnumMap<>(ErrorCode.class);
        for (ErrorCode code : ErrorCode.values()) {
            bases.put(code, code.backoffBase());
        }
        return new Backoff(bases, ErrorCode.DEFAULT_BACKOFF_BASE, Duration.ofSeconds(30), 2, Jitter.NONE);
    }

    public Backoff withBase(ErrorCode code, Duration base) {
        Map<ErrorCode, Duration> changed = new EnumMap<>(ErrorCode.class);
        changed.putAll(bases);
        changed.put(code, base);
        return new Backoff(changed, defaultBase, cap, multiplier, jitter);
    }

    public Backoff withCap(Duration newCap) {
        return new Backoff(bases, defaultBase, newCap, multiplier, jitter);
    }

    public Backoff withJitter(Jitter newJitter) {
        return new Backoff(bases, defaultBase, cap, multiplier, newJitter);
    }

    /**
     * The delay after {@code attempt} (0 = the first try) failed with {@code code}.
     *
     * @param rateLimit the provider's rate-limit state, or null
     * @param now       the time the failure is handled, to turn a window's reset time into a wait
     * @param random    the source of jitter (unused when jitter is 0)
     */
    public Delay delay(ErrorCode code, int attempt, RateLimitState rateLimit, Instant now, Random random) {
        Duration base = bases.getOrDefault(code, defaultBase);
        double exponential = base.toMillis() * Math.pow(multiplier, attempt);
        long computed = (long) Math.min(exponential, cap.toMillis());
        String why = "backoff " + base.toMillis() + " ms x " + trim(multiplier) + "^" + attempt
                + (exponential > cap.toMillis() ? ", capped at " + cap.toMillis() + " ms" : "");
        if (jitter.kind() != Jitter.Kind.NONE) {
            long spread = jitter.apply(computed, random.nextDouble());
            why += ", " + jitter + " jitter " + jitter.min(computed) + "-" + jitter.max(computed) + " ms: " + spread + " ms";
            computed = spread;
        }
        long providerMinimum = 0;
        String providerWhy = null;
        if (rateLimit != null) {
            if (rateLimit.getRetryAfterMs() != null && rateLimit.getRetryAfterMs() > providerMinimum) {
                providerMinimum = rateLimit.getRetryAfterMs();
                providerWhy = "provider retry_after " + providerMinimum + " ms"
                        + (rateLimit.getRetryAfterHeader() == null ? "" : " (header " + rateLimit.getRetryAfterHeader() + ")");
            }
            for (RateLimitWindow window : rateLimit.getWindows()) {
                if (window.getRemaining() != null && window.getRemaining() == 0) {
                    boolean unsaid = window.getResetsInMs() == null && window.getResetAtMs() == null;
                    long reset = unsaid ? unsaidReset(window, rateLimit.getRetryAfterMs()) : resetIn(window, now);
                    if (reset > providerMinimum) {
                        providerMinimum = reset;
                        providerWhy = "rate-limit window " + window.getName() + " exhausted"
                                + (window.getHeader() == null ? "" : " (header " + window.getHeader() + ")")
                                + (unsaid ? ", no reset given: seed 003's wait " : ", resets in ") + reset + " ms";
                    }
                }
            }
        }
        if (providerMinimum > computed) {
            return new Delay(Duration.ofMillis(providerMinimum), providerWhy + " (over " + why + ")");
        }
        return new Delay(Duration.ofMillis(computed), why);
    }

    /**
     * The wait for an exhausted window that gives no reset time, as seed 003 waits it: an hourly window 3 600 s, a
     * minute window the provider's retry_after, else 60 s; a window of no known length, none (the backoff decides).
     */
    static long unsaidReset(RateLimitWindow window, Long retryAfterMs) {
        if (WindowLength.is(window, WindowLength.HOUR)) {
            return HOURLY_DEFAULT_MS;
        }
        return WindowLength.is(window, WindowLength.MINUTE) && retryAfterMs == null ? MINUTE_DEFAULT_MS : 0;
    }

    static long resetIn(RateLimitWindow window, Instant now) {
        long fromResetsIn = window.getResetsInMs() == null ? 0 : window.getResetsInMs();
        // Compared first, not subtracted: a hostile reset time far in the past must not wrap into a long wait.
        long fromResetAt = window.getResetAtMs() == null || window.getResetAtMs() <= now.toEpochMilli() ? 0
                : window.getResetAtMs() - now.toEpochMilli();
        return Math.max(fromResetsIn, fromResetAt);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
