package io.agentoutcomes.app.fleet;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * How a fleet runs.
 *
 * @param clientSettings     Kafka client settings with {@code bootstrap.servers}, {@code schema.registry.url} and, if
 *                           the pipeline uses one, {@code topic.prefix}
 * @param ratePerSecond      new tasks (or jobs, or loop steps) per second; re-runs come on top
 * @param duration           how long it runs: new tasks until {@link #drain()} before the end, re-runs until the end
 * @param seed               the random source of the traffic and of every re-run's fate
 * @param rerunSuccess       the probability that a re-run succeeds
 * @param settleTimeout      after the end, how long to wait for the pipeline to hand back every scheduled retry
 * @param reportCosts        whether results report their cost; without, they carry tokens only and the pipeline prices
 *                           them from its price table
 */
public record FleetSettings(Map<String, Object> clientSettings, double ratePerSecond, Duration duration, long seed,
                            double rerunSuccess, Duration settleTimeout, boolean reportCosts) {
    /** A fleet whose results report their cost. */
    public FleetSettings(Map<String, Object> clientSettings, double ratePerSecond, Duration duration, long seed,
                         double rerunSuccess, Duration settleTimeout) {
        this(clientSettings, ratePerSecond, duration, seed, rerunSuccess, settleTimeout, true);
    }

    public FleetSettings {
        clientSettings = Map.copyOf(clientSettings);
        if (!(ratePerSecond > 0 && ratePerSecond <= 10_000)) {
            throw new IllegalArgumentException("--rate must be within 0..10000 per second: " + ratePerSecond);
        }
        if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("--duration must be within 1 s and 1 day: " + duration);
        }
        if (!(rerunSuccess >= 0 && rerunSuccess <= 1)) {
            throw new IllegalArgumentException("--rerun-success must be within 0..1: " + rerunSuccess);
        }
    }

    /**
     * The last part of the run, without new tasks, so most retry chains end before it does and the report follows the
     * run closely: a half, at most 30 s (a chain of 5 retries capped at 8 s, as in {@code demo}, takes up to 40 s).
     */
    public Duration drain() {
        Duration half = duration.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : half;
    }

    /**
     * A duration as {@code 30s}, {@code 2m}, {@code 1h}, {@code 500ms}, a number of seconds, or ISO-8601 ({@code PT30S}).
     */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("pt") || t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            if (t.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(t.substring(0, t.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(t));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (e.g. 30s, 2m, 500ms, PT1M)");
        }
    }

    /** A rate as {@code 20}, {@code 20/s} or {@code 1200/m}. */
    public static double parseRate(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("/s")) {
                return Double.parseDouble(t.substring(0, t.length() - 2));
            }
            if (t.endsWith("/m")) {
                return Double.parseDouble(t.substring(0, t.length() - 2)) / 60;
            }
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a rate: '" + text + "' (e.g. 20/s)");
        }
    }
}
