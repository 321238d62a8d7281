package io.agentoutcomes.topology.classify;

import java.util.Locale;

/**
 * How a computed backoff is spread so that a fleet's retries of one incident do not come due in step (the "exponential
 * backoff and jitter" analysis): {@code none} (the default: seed 000's delays exact), {@code full} (uniformly between 0
 * and the computed delay), {@code equal} (half the computed delay, plus up to the other half), or a fraction
 * {@code 0..1} (up to ± that share of the computed delay). Only the computed delay is spread: a provider's
 * {@code retry_after} or a window's reset is applied after, so jitter never makes a retry earlier than the provider
 * allows.
 *
 * @param kind     which spread
 * @param fraction the share of a {@link Kind#PROPORTIONAL} spread, else 0
 */
public record Jitter(Kind kind, double fraction) {
    /** The spreads. */
    public enum Kind { NONE, FULL, EQUAL, PROPORTIONAL }

    public static final Jitter NONE = new Jitter(Kind.NONE, 0);

    public Jitter {
        if (fraction < 0 || fraction > 1 || kind == Kind.PROPORTIONAL && fraction == 0) {
            throw new IllegalArgumentException("jitter needs a fraction in 0..1");
        }
    }

    /** {@code none}, {@code full}, {@code equal}, or a fraction {@code 0..1} (0 is none). */
    public static Jitter parse(String value) {
        String word = value.trim().toLowerCase(Locale.ROOT);
        switch (word) {
            case "none":
                return NONE;
            case "full":
                return new Jitter(Kind.FULL, 0);
            case "equal":
                return new Jitter(Kind.EQUAL, 0);
            default:
                break;
        }
        double fraction;
        try {
            fraction = Double.parseDouble(word);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not none, full, equal or a fraction 0..1");
        }
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("a jitter fraction must be in 0..1, was " + value);
        }
        return fraction == 0 ? NONE : new Jitter(Kind.PROPORTIONAL, fraction);
    }

    /** The least a computed delay can become. */
    public long min(long computed) {
        return switch (kind) {
            case NONE -> computed;
            case FULL -> 0;
            case EQUAL -> computed / 2;
            case PROPORTIONAL -> Math.max(0, Math.round(computed * (1 - fraction)));
        };
    }

    /** The most a computed delay can become. */
    public long max(long computed) {
        return kind == Kind.PROPORTIONAL ? Math.round(computed * (1 + fraction)) : computed;
    }

    /** The computed delay spread by {@code unit}, a draw uniform in [0, 1). */
    public long apply(long computed, double unit) {
        long min = min(computed);
        return min + (long) Math.floor((max(computed) - min) * unit);
    }

    /** The setting's value, as {@link #parse} takes it. */
    @Override
    public String toString() {
        return kind == Kind.PROPORTIONAL ? String.valueOf(fraction) : kind.name().toLowerCase(Locale.ROOT);
    }
}
