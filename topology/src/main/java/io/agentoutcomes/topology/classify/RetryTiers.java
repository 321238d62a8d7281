package io.agentoutcomes.topology.classify;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The delay tiers: a retry waits in the topic {@code retry-delay-<tier>} of the shortest tier at least as long as its
 * delay, and {@value #LONG} holds the delays beyond the last bound (a provider's retry_after). The tiers are declared
 * (setting {@code retry.tiers}, by default {@link #DEFAULT_BOUNDS}), never derived from the backoff: a backoff setting
 * changes delays, not topic names. The scheduler holds every retry until its due time whatever its tier.
 */
public record RetryTiers(List<Tier> tiers) {
    public static final String LONG = "long";
    /** The default bounds: the default backoff's delays (its bases and its cap), so one tier per delay it computes. */
    public static final List<Duration> DEFAULT_BOUNDS = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2),
            Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30));

    /** A tier: its name and the longest delay it holds (null: any). */
    public record Tier(String name, Duration upTo) {
    }

    public RetryTiers {
        tiers = List.copyOf(tiers);
        if (tiers.isEmpty() || tiers.get(tiers.size() - 1).upTo() != null) {
            throw new IllegalArgumentException("the last tier must hold any delay");
        }
    }

    /** The tiers of {@link #DEFAULT_BOUNDS}: 1s, 2s, 5s, 10s, 30s, then {@value #LONG}. */
    public static RetryTiers defaults() {
        return of(DEFAULT_BOUNDS);
    }

    /** Tiers up to each of the given delays, then {@value #LONG}. */
    public static RetryTiers of(List<Duration> bounds) {
        List<Tier> tiers = new ArrayList<>();
        new TreeSet<>(bounds).forEach(bound -> tiers.add(new Tier(name(bound), bound)));
        tiers.add(new Tier(LONG, null));
        return new RetryTiers(tiers);
    }

    /** The tier for a delay. */
    public Tier tierFor(Duration delay) {
        for (Tier tier : tiers) {
            if (tier.upTo() == null || delay.compareTo(tier.upTo()) <= 0) {
                return tier;
            }
        }
        throw new IllegalStateException("unreachable: the last tier holds any delay");
    }

    public List<String> names() {
        return tiers.stream().map(Tier::name).toList();
    }

    /** 1s, 500ms, 2m, 90m: short and fit for a topic name. */
    public static String name(Duration duration) {
        long ms = duration.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s < 60 || s % 60 != 0) {
            return s + "s";
        }
        long m = s / 60;
        return m < 60 || m % 60 != 0 ? m + "m" : m / 60 + "h";
    }
}
