package io.agentoutcomes.topology.classify;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The delay tiers: a retry waits in the topic {@code retry-delay-<tier>} of the shortest tier at least as long as its
 * delay. By default one tier per distinct delay of the backoff table (its bases and its cap: 1s, 2s, 5s, 10s, 30s)
 * and {@value #LONG} for delays beyond the cap (a provider's retry_after).
 */
public record RetryTiers(List<Tier> tiers) {
    public static final String LONG = "long";

    /** A tier: its name and the longest delay it holds (null: any). */
    public record Tier(String name, Duration upTo) {
    }

    public RetryTiers {
        tiers = List.copyOf(tiers);
        if (tiers.isEmpty() || tiers.get(tiers.size() - 1).upTo() != null) {
            throw new IllegalArgumentException("the last tier must hold any delay");
        }
    }

    /** One tier per distinct base delay and the cap of a backoff, then {@value #LONG}. */
    public static RetryTiers derivedFrom(Backoff backoff) {
        TreeSet<Duration> bounds = new TreeSet<>(backoff.bases().values());
        bounds.add(backoff.defaultBase());
        bounds.add(backoff.cap());
        return of(bounds.headSet(backoff.cap(), true).stream().toList());
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

    /** 1s, 500ms, 2m, 1h30m: short and fit for a topic name. */
    static String name(Duration duration) {
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
