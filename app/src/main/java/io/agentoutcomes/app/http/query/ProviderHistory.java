package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.ProviderState;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A short history of each provider scope's held and paced retries, for the dashboard's sparkline: every interval one
 * sample of the gate's answer ({@link ProviderQueries#scopes}, every instance's), at most {@value #SAMPLES} per scope,
 * oldest dropped. A scope gone from a complete answer (the gate forgot it) is forgotten here too, so the scopes are
 * bounded by the gate's {@code provider.max.scopes}. A sample that cannot be read completely is skipped: a gap.
 */
public final class ProviderHistory implements AutoCloseable {
    /** Samples kept per scope. */
    public static final int SAMPLES = 60;
    private static final Logger LOG = LoggerFactory.getLogger(ProviderHistory.class);

    /**
     * One sample of a scope.
     *
     * @param at     when it was read, epoch milliseconds
     * @param held   the retries the scope held then
     * @param paced  the retries it released after a hold since the sample before; -1 when there is no sample before to
     *               count from (the history's first: the scope's total then says nothing of those minutes)
     * @param pacedTotal the scope's own count of paced retries then (cumulative, as {@code /providers} has it)
     */
    public record Sample(long at, long held, long paced, long pacedTotal) {
    }

    /** A scope: its provider, and its model (null where the scope is the provider alone). */
    public record Scope(String provider, String model) {
        static Scope of(ProviderState state) {
            return new Scope(state.getProvider(), state.getModel());
        }
    }

    /** Each scope's samples, oldest first (the last one's {@code pacedTotal} is what the next counts from). */
    private final Map<Scope, ArrayDeque<Sample>> scopes = new HashMap<>();
    private final Duration interval;
    private boolean sampled;
    private ScheduledExecutorService sampler;

    /** A history sampled every {@code interval} (once {@link #start started}, or by whoever {@link #record records}). */
    public ProviderHistory(Duration interval) {
        this.interval = interval;
    }

    /** How often a sample is taken. */
    public Duration interval() {
        return interval;
    }

    /** Samples {@code providers} every interval on a thread of its own until {@link #close}. */
    public synchronized ProviderHistory start(ProviderQueries providers, Clock clock) {
        sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "provider-history");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleWithFixedDelay(() -> {
            try {
                record(clock.millis(), providers.scopes());
            } catch (RuntimeException e) {
                // partitions moving, another instance not answering: this sample is a gap
                LOG.debug("No provider sample: {}", e.getMessage());
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** Adds one complete answer of the gate, read at {@code at}. */
    public synchronized void record(long at, List<ProviderState> states) {
        Set<Scope> seen = new HashSet<>();
        for (ProviderState state : states) {
            Scope scope = Scope.of(state);
            seen.add(scope);
            ArrayDeque<Sample> ring = scopes.get(scope);
            long paced;
            if (ring == null) {
                ring = new ArrayDeque<>(SAMPLES);
                scopes.put(scope, ring);
                // new since the last sample: all it paced, it paced since; in the first sample, unknown when
                paced = sampled ? state.getPaced() : -1;
            } else {
                // a count below the last is a scope forgotten and begun again: all it shows is new
                long before = ring.getLast().pacedTotal();
                paced = state.getPaced() >= before ? state.getPaced() - before : state.getPaced();
            }
            if (ring.size() == SAMPLES) {
                ring.removeFirst();
            }
            ring.addLast(new Sample(at, state.getHeld(), paced, state.getPaced()));
        }
        scopes.keySet().retainAll(seen);
        sampled = true;
    }

    /** The samples of a scope, oldest first; empty when it has none. */
    public synchronized List<Sample> samples(String provider, String model) {
        ArrayDeque<Sample> ring = scopes.get(new Scope(provider, model));
        return ring == null ? List.of() : List.copyOf(ring);
    }

    /** The scopes with samples. */
    public synchronized Set<Scope> scopes() {
        return Set.copyOf(scopes.keySet());
    }

    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }
}
