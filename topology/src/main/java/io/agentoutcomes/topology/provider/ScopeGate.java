package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RequestBudget;
import io.agentoutcomes.avro.RetryRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One scope at the provider gate: its persisted {@link ProviderState} (kept as it is stored, so state on disk and in
 * the changelog survives) and what may be asked of it. It hears what its provider advertises and the outcomes it
 * tallies ({@link #advertise}, {@link #observe}), says how many retries may go now ({@link #allowance}), and counts the
 * retries it lets through, holds and releases ({@link #admit}, {@link #hold}, {@link #release}). The rules behind each
 * answer are {@link Circuit}'s, {@link RequestBudgets}' and {@link RetryBudget}'s; only this class hands them the record.
 * One object per scope for the life of its task: nothing here allocates per retry but the budgets' slices.
 */
final class ScopeGate {
    private final ProviderState state;
    private final ProviderGateSettings settings;

    /** A scope as its store holds it. */
    ScopeGate(ProviderState state, ProviderGateSettings settings) {
        this.state = state;
        this.settings = settings;
    }

    /** A scope first seen at {@code now}: closed, nothing held, no evidence. */
    static ScopeGate open(String provider, String model, long now, ProviderGateSettings settings) {
        return new ScopeGate(ProviderState.newBuilder().setProvider(provider).setModel(model).setSince(now)
                .setBuckets(new ArrayList<>()).setBudgets(new ArrayList<>()).setRetrySlices(new ArrayList<>())
                .setFallbacksReceived(new ArrayList<>()).build(), settings);
    }

    /** The persisted form, to store. */
    ProviderState state() {
        return state;
    }

    String provider() {
        return state.getProvider();
    }

    String model() {
        return state.getModel();
    }

    CircuitState circuit() {
        return state.getCircuit();
    }

    long held() {
        return state.getHeld();
    }

    long budgetExhaustedSince() {
        return state.getBudgetExhaustedSince();
    }

    /** Something of the scope was heard of at {@code now}: it is not idle. */
    void touch(long now) {
        state.setLastActivity(now);
    }

    /** Whether the scope may be forgotten: nothing held, its circuit closed, nothing heard of for the idle expiry. */
    boolean idle(long now) {
        return state.getHeld() == 0 && state.getCircuit() == CircuitState.CLOSED
                && now - state.getLastActivity() > settings.idleExpiry().toMillis();
    }

    /** Takes the request windows the provider advertised at {@code at} into the scope's budgets (when pacing). */
    void advertise(List<RateLimitWindow> windows, long at, long now) {
        if (settings.pacing()) {
            RequestBudgets.advertise(state, windows, at, now, settings.defaultWindow(), settings.checkInterval().toMillis());
        }
    }

    /** Takes the request windows a due retry's failed attempt was told into the scope's budgets (when pacing). */
    void advertise(RetryRequest retry, long now) {
        // the failed attempt's rate limits are its own model's, not those of a fallback the retry already carries
        if (settings.pacing() && retry.getAgentResult().getRateLimit() != null && retry.getFallbackProvider() == null) {
            advertise(windowsOf(retry), retry.getFailedAt(), now);
        }
    }

    /** The windows of a retry's failure as they stood when it failed, from when the provider said them where known. */
    private List<RateLimitWindow> windowsOf(RetryRequest retry) {
        Long said = retry.getAgentResult().getRecordTimestamp();
        long saidAt = said == null ? retry.getFailedAt() : Math.min(said, retry.getFailedAt());
        return AdvertisedWindows.asOf(retry.getAgentResult().getRateLimit().getWindows(), saidAt, retry.getFailedAt(),
                settings.defaultWindow());
    }

    /** Takes a tally of the scope's outcomes (and the windows it carries) as evidence; the circuit's change, if any. */
    Optional<ProviderHealth> observe(ProviderSignal signal, long now) {
        if (signal.getAdvertisedAt() != null) {
            advertise(signal.getWindows(), signal.getAdvertisedAt(), now);
        }
        Optional<ProviderHealth> change = settings.circuit().enabled() ? Circuit.observe(state, signal, settings.circuit(), now)
                : Optional.empty();
        if (settings.budget().enabled()) {
            RetryBudget.observe(state, signal.getOutcomes(), signal.getTo(), settings.budget());
        }
        return change;
    }

    /** Moves the circuit if its evidence or the time say so; the change to publish, if any. */
    Optional<ProviderHealth> evaluate(long now) {
        return settings.circuit().enabled() ? Circuit.evaluate(state, settings.circuit(), now) : Optional.empty();
    }

    /** How many retries may go now: the least of what the circuit, the advertised budgets and the retry budget allow. */
    long allowance(long now) {
        long paced = paced(now);
        return settings.budget().enabled() ? Math.min(paced, RetryBudget.allowance(state, now, settings.budget())) : paced;
    }

    /** What the circuit and the provider's advertised budgets allow (the retry budget aside). */
    private long paced(long now) {
        long circuit = settings.circuit().enabled() ? Circuit.allowance(state, settings.circuit()) : Long.MAX_VALUE;
        return settings.pacing() ? Math.min(circuit, RequestBudgets.allowance(state, now, settings.checkInterval().toMillis()))
                : circuit;
    }

    /**
     * Whether a due retry may go on at once: nothing of the scope is held and the scope allows one. Counts nothing:
     * the caller counts it with {@link #letThrough} once forwarded, or {@link #hold} once stored.
     */
    boolean admits(long now) {
        return state.getHeld() == 0 && allowance(now) > 0;
    }

    /** One retry let through at once. */
    void letThrough(long now) {
        spend(1, now);
    }

    /** One more retry held (in the held store already). */
    void hold() {
        state.setHeld(state.getHeld() + 1);
    }

    /** {@code count} held retries released, oldest first, as the allowance let them. */
    void release(long count, long now) {
        state.setHeld(state.getHeld() - count);
        state.setPaced(state.getPaced() + count);
        spend(count, now);
    }

    /** {@code count} held retries gone elsewhere (re-scoped to a fallback): no longer held here, not let through here. */
    void unhold(long count) {
        state.setHeld(state.getHeld() - count);
    }

    private void spend(long count, long now) {
        if (settings.budget().enabled()) {
            RetryBudget.spend(state, count, now, settings.budget());
        }
        RequestBudgets.spend(state, count);
        if (state.getCircuit() == CircuitState.HALF_OPEN) {
            state.setProbesReleased((int) Math.min(Integer.MAX_VALUE, state.getProbesReleased() + count));
        }
    }

    /**
     * Marks whether the retry budget, and nothing else, holds the scope's retries; the due time before which held
     * retries are to be stopped (the budget spent for the max hold), or {@link Long#MIN_VALUE} for none.
     */
    long stopDueBefore(long now) {
        boolean exhausted = state.getHeld() > 0 && paced(now) > 0 && RetryBudget.allowance(state, now, settings.budget()) == 0;
        if (!exhausted) {
            state.setBudgetExhaustedSince(0);
            return Long.MIN_VALUE;
        }
        if (state.getBudgetExhaustedSince() == 0) {
            state.setBudgetExhaustedSince(now);
        }
        long before = now - settings.budget().maxHold().toMillis();
        return state.getBudgetExhaustedSince() > before ? Long.MIN_VALUE : before;
    }

    /** The dead letter of a held retry the spent retry budget stops ({@link RetryBudget#stopped}); not yet counted. */
    ClassifiedOutcome stop(RetryRequest retry, long now) {
        return RetryBudget.stopped(retry, state, now, settings.budget());
    }

    /** {@code count} held retries stopped to {@code dead-letter}. */
    void stopped(long count) {
        state.setHeld(state.getHeld() - count);
        state.setBudgetStopped(state.getBudgetStopped() + count);
    }

    /** Why the scope cannot serve a retry now, or null where it can (a half-open circuit's probes are served). */
    FallbackCause sickness(long now) {
        if (settings.circuit().enabled() && state.getCircuit() == CircuitState.OPEN) {
            return FallbackCause.CIRCUIT_OPEN;
        }
        if (settings.pacing()) {
            for (RequestBudget budget : state.getBudgets()) {
                if (budget.getBlockedUntil() > now) {
                    return FallbackCause.REQUESTS_EXHAUSTED;
                }
            }
        }
        return null;
    }

    /** One more retry moved here from the scope of {@code provider} and {@code model}, for {@code cause}. */
    void received(String provider, String model, FallbackCause cause) {
        for (FallbackCount count : state.getFallbacksReceived()) {
            if (count.getCause() == cause && count.getProvider().equals(provider) && Objects.equals(count.getModel(), model)) {
                count.setRetries(count.getRetries() + 1);
                return;
            }
        }
        // Bounded: the scopes that can move retries here, and why, are those of the declared chains leading here.
        state.getFallbacksReceived().add(new FallbackCount(provider, model, cause, 1L));
    }
}
