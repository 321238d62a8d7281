package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.fallback.FallbackChains;
import java.util.function.Function;

/**
 * The gate's fallbacks (issue 33): a due retry whose scope cannot serve it (its circuit open, a request window it
 * advertised exhausted until its reset, or a daily limit exhausted: a {@code SWITCH_PROVIDER} retry) is re-scoped, where
 * a chain is declared for its model, to the first model of the chain that can serve, and gated there under that scope's
 * own circuit and pacing instead of being held by the sick one. Every scope of a chain is kept by the same gate task
 * ({@link ChainPartitioner}), so the decision reads the fallback's state where the retry is. Each move is counted once,
 * on the scope moved to ({@code fallbacksReceived}, by the scope moved away from and the cause): the gate's own moves
 * when it makes them, a context-window retry (moved by classification) when it reaches the gate of its larger model.
 */
final class Fallbacks {
    private final FallbackChains chains;
    private final ProviderGateSettings settings;

    /**
     * A retry re-scoped.
     *
     * @param key   the fallback scope's key, where it is gated now
     * @param scope the fallback scope
     * @param retry the retry, carrying the fallback model and why
     */
    record Diversion(String key, ScopeGate scope, RetryRequest retry) {
    }

    Fallbacks(FallbackChains chains, ProviderGateSettings settings) {
        this.chains = chains;
        this.settings = settings;
    }

    /** The scope a due retry is gated under: the fallback it already carries (a context-window chain's), else its result's. */
    static ProviderScope scopeOf(RetryRequest retry, ProviderScope.By by) {
        if (retry.getFallbackProvider() != null) {
            return new ProviderScope(ProviderScope.name(retry.getFallbackProvider()),
                    by == ProviderScope.By.PROVIDER ? null : ProviderScope.name(retry.getFallbackModel()));
        }
        return ProviderScope.of(retry.getAgentResult(), by);
    }

    /** Whether a retry that switches provider has a chain to switch along, so that it passes the gate. */
    boolean declared(RetryRequest retry) {
        return !chains.isEmpty() && chain(retry) != null;
    }

    /**
     * The retry re-scoped to the first model of its chain that can serve it now, counted on the fallback's scope; or
     * null: its scope can serve it, no chain is declared for its model, or no model of the chain can serve either (it
     * waits where it is). A diversion returned must be applied: it is counted.
     *
     * @param scopeOf a scope, created on first sight; null past the gate's bound on scopes
     */
    Diversion divert(ScopeGate from, RetryRequest retry, long now, Function<ProviderScope, ScopeGate> scopeOf) {
        if (chains.isEmpty()) {
            return null;
        }
        FallbackCause cause = retry.getAction() == RetryAction.SWITCH_PROVIDER && retry.getFallbackProvider() == null
                ? FallbackCause.DAILY_LIMIT : from.sickness(now);
        FallbackChains.Chain chain = cause == null ? null : chain(retry);
        if (chain == null) {
            return null;
        }
        for (FallbackChains.Model to : chain.to()) {
            ProviderScope scope = new ProviderScope(to.provider(), settings.scope() == ProviderScope.By.PROVIDER ? null : to.model());
            ScopeGate fallback = scopeOf.apply(scope);
            if (fallback != null && fallback != from && fallback.sickness(now) == null) {
                RetryRequest diverted = RetryRequest.newBuilder(retry).setFallbackProvider(to.provider())
                        .setFallbackModel(to.model()).setFallbackCause(cause)
                        .setFallbackReason(text(cause) + " on " + chain.from() + ": re-run on " + to + " (" + chain.setting() + ")")
                        .build();
                fallback.received(from.provider(), from.model(), cause);
                return new Diversion(scope.key(), fallback, diverted);
            }
        }
        return null;
    }

    /**
     * Counts a due retry that reaches the gate of {@code scope} carrying a context-window fallback (set in
     * classification) as moved there from its result's scope.
     */
    static void arrived(ScopeGate scope, RetryRequest retry, ProviderScope.By by) {
        ProviderScope from = retry.getFallbackCause() == FallbackCause.CONTEXT_WINDOW ? ProviderScope.of(retry.getAgentResult(), by) : null;
        if (from != null) {
            scope.received(from.provider(), from.model(), FallbackCause.CONTEXT_WINDOW);
        }
    }

    /** Whether a chain is declared for the scope's model (for a scope of a provider alone, for any of its models). */
    boolean declared(ScopeGate scope) {
        if (scope.model() != null) {
            return chains.chain(FallbackChains.Kind.GENERAL, scope.provider(), scope.model()).isPresent();
        }
        return chains.all(FallbackChains.Kind.GENERAL).stream().anyMatch(chain -> chain.from().provider().equals(scope.provider()));
    }

    /** The general chain of the model a retry is to run on now: its fallback's, else its result's. */
    private FallbackChains.Chain chain(RetryRequest retry) {
        String provider = retry.getFallbackProvider();
        String model = retry.getFallbackModel();
        if (provider == null && retry.getAgentResult() != null) {
            provider = ProviderScope.rawProvider(retry.getAgentResult());
            model = ProviderScope.rawModel(retry.getAgentResult());
        }
        return chains.chain(FallbackChains.Kind.GENERAL, provider, model).orElse(null);
    }

    private static String text(FallbackCause cause) {
        return switch (cause) {
            case CIRCUIT_OPEN -> "circuit open";
            case REQUESTS_EXHAUSTED -> "request window exhausted";
            case DAILY_LIMIT -> "daily limit exhausted";
            case CONTEXT_WINDOW -> "context window exceeded";
        };
    }
}
