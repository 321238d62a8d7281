package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.OutcomeBucket;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.ProviderState;
import java.util.ArrayList;
import java.util.Optional;

/**
 * A scope's circuit: its evidence kept in slices of a sliding window, and the rules that move it. Closed, it opens
 * when the window holds at least the minimum outcomes and the failure rate is reached; open, it half-opens once the
 * open time has passed; half-open, the outcomes seen since decide: a success with failures under the rate closes it,
 * failures without a success open it again. A half-open circuit that hears nothing for another open time releases a
 * new round of probes (orchestrators that never re-ran the last ones must not hold the scope for ever).
 */
final class Circuit {
    /** The sliding window is kept in this many slices. */
    static final int SLICES = 12;

    private Circuit() {
    }

    /** Takes a tally into the evidence, then moves the circuit if the evidence says so. */
    static Optional<ProviderHealth> observe(ProviderState state, ProviderSignal tally, ProviderGateSettings.CircuitSettings settings,
                                            long now) {
        long slice = Math.max(1, settings.window().toMillis() / SLICES);
        long start = tally.getTo() - Math.floorMod(tally.getTo(), slice);
        OutcomeBucket bucket = null;
        for (OutcomeBucket existing : state.getBuckets()) {
            if (existing.getStart() == start) {
                bucket = existing;
            }
        }
        if (bucket == null) {
            bucket = new OutcomeBucket(start, 0L, 0L);
            state.getBuckets().add(bucket);
        }
        bucket.setOutcomes(bucket.getOutcomes() + tally.getOutcomes());
        bucket.setFailures(bucket.getFailures() + tally.getFailures());
        if (state.getCircuit() == CircuitState.HALF_OPEN && tally.getTo() > state.getSince()) {
            state.setProbeSuccesses(state.getProbeSuccesses() + tally.getSuccesses());
            state.setProbeFailures(state.getProbeFailures() + tally.getFailures());
            state.setProbeOutcomes(state.getProbeOutcomes() + tally.getSuccesses() + tally.getFailures());
        }
        return evaluate(state, settings, now);
    }

    /** Moves the circuit if its evidence or the time say so; the change to publish, if any. */
    static Optional<ProviderHealth> evaluate(ProviderState state, ProviderGateSettings.CircuitSettings settings, long now) {
        long windowStart = now - settings.window().toMillis();
        long slice = settings.window().toMillis() / SLICES;
        // Rebuilt only when a slice has expired (the check runs every 100 ms), as a new list, not by removeIf: a state
        // read from the store holds Avro arrays, whose iterators cannot remove.
        if (state.getBuckets().stream().anyMatch(bucket -> bucket.getStart() + slice <= windowStart)) {
            state.setBuckets(new ArrayList<>(state.getBuckets().stream()
                    .filter(bucket -> bucket.getStart() + slice > windowStart).toList()));
        }
        long outcomes = 0;
        long failures = 0;
        for (OutcomeBucket bucket : state.getBuckets()) {
            outcomes += bucket.getOutcomes();
            failures += bucket.getFailures();
        }
        switch (state.getCircuit()) {
            case CLOSED -> {
                if (outcomes >= settings.minOutcomes() && failures >= settings.failureRate() * outcomes) {
                    state.setOpened(state.getOpened() + 1);
                    return Optional.of(move(state, CircuitState.OPEN, now, String.format("%d of %d outcomes in %d s were "
                            + "failures of %s (rate %.2f >= %.2f)", failures, outcomes, settings.window().toSeconds(),
                            codes(settings), (double) failures / outcomes, settings.failureRate()), outcomes, failures, settings));
                }
            }
            case OPEN -> {
                if (now >= state.getSince() + settings.openFor().toMillis()) {
                    state.setHalfOpened(state.getHalfOpened() + 1);
                    return Optional.of(move(state, CircuitState.HALF_OPEN, now, "open for " + settings.openFor().toSeconds()
                            + " s: releasing up to " + settings.probes() + " retries as probes", outcomes, failures, settings));
                }
            }
            case HALF_OPEN -> {
                long seen = state.getProbeOutcomes();
                long failed = state.getProbeFailures();
                if (seen > 0 && state.getProbeSuccesses() > 0 && failed < settings.failureRate() * seen) {
                    state.setBuckets(new ArrayList<>());
                    state.setClosed(state.getClosed() + 1);
                    return Optional.of(move(state, CircuitState.CLOSED, now, state.getProbeSuccesses() + " successes and "
                            + failed + " failures since half-open", seen, failed, settings));
                }
                if (failed > 0 && state.getProbeSuccesses() == 0) {
                    state.setOpened(state.getOpened() + 1);
                    return Optional.of(move(state, CircuitState.OPEN, now, failed + " failures and no success since "
                            + "half-open", seen, failed, settings));
                }
                if (now >= state.getSince() + settings.openFor().toMillis() && state.getProbesReleased() > 0) {
                    // nothing heard of the last probes: another round, no change to publish
                    state.setSince(now);
                    state.setProbesReleased(0);
                }
            }
            default -> throw new IllegalStateException("unknown circuit state " + state.getCircuit());
        }
        return Optional.empty();
    }

    /** How many retries the circuit lets through now: all closed, none open, the probes left half-open. */
    static long allowance(ProviderState state, ProviderGateSettings.CircuitSettings settings) {
        return switch (state.getCircuit()) {
            case CLOSED -> Long.MAX_VALUE;
            case OPEN -> 0;
            case HALF_OPEN -> Math.max(0, settings.probes() - state.getProbesReleased());
        };
    }

    private static ProviderHealth move(ProviderState state, CircuitState to, long now, String reason, long outcomes, long failures,
                                       ProviderGateSettings.CircuitSettings settings) {
        ProviderHealth change = ProviderHealth.newBuilder().setProvider(state.getProvider()).setModel(state.getModel())
                .setState(to).setPrevious(state.getCircuit()).setAt(now).setReason(reason).setOutcomes(outcomes)
                .setFailures(failures).setWindowMs(settings.window().toMillis()).setHeldRetries(state.getHeld()).build();
        state.setCircuit(to);
        state.setSince(now);
        state.setProbesReleased(0);
        state.setProbeOutcomes(0L);
        state.setProbeSuccesses(0L);
        state.setProbeFailures(0L);
        return change;
    }

    private static String codes(ProviderGateSettings.CircuitSettings settings) {
        return settings.codes().stream().map(code -> code.value()).sorted().toList().toString();
    }
}
