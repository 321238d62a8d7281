package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ErrorCode;
import java.time.Duration;
import java.util.Set;

/**
 * How the provider gate paces retries and keeps circuits.
 *
 * @param enabled        whether due retries pass the gate at all (off: straight to {@code retry-ready})
 * @param scope          how finely budgets and circuits are kept
 * @param pacing         whether retries are released no faster than a provider's advertised request budget
 * @param defaultWindow  the length of a request window whose name does not say (OpenAI's and Anthropic's are per minute)
 * @param circuit        when a provider's circuit opens, and how it recovers
 * @param signalInterval how often each stream task sends its tally of outcomes to the gate
 * @param checkInterval  how often the gate releases held retries
 * @param partitions     partitions of the gate's two repartition topics (equal, so a scope's retries and evidence meet)
 * @param maxScopes      the most scopes one gate task keeps; retries of further scopes pass ungated
 * @param idleExpiry     how long a scope with nothing held and no evidence is kept
 * @param budget         the retry budget per scope: retries as a share of its requests (issue 33)
 */
public record ProviderGateSettings(boolean enabled, ProviderScope.By scope, boolean pacing, Duration defaultWindow,
                                   CircuitSettings circuit, Duration signalInterval, Duration checkInterval, int partitions,
                                   int maxScopes, Duration idleExpiry, RetryBudgetSettings budget) {

    /**
     * When a circuit opens: {@code failureRate} or more of at least {@code minOutcomes} outcomes in the sliding
     * {@code window} are failures of {@code codes}. It stays open {@code openFor}, then half-opens and releases up to
     * {@code probes} retries; the outcomes that follow close it (a success, failures under the rate) or open it again.
     */
    public record CircuitSettings(boolean enabled, Duration window, int minOutcomes, double failureRate, Duration openFor,
                                  int probes, Set<ErrorCode> codes) {
        public CircuitSettings {
            if (window.toMillis() < 1_000 || minOutcomes < 1 || failureRate <= 0 || failureRate > 1 || openFor.isNegative()
                    || probes < 1) {
                throw new IllegalArgumentException("a circuit needs a window of a second or more, at least one outcome, a "
                        + "failure rate in (0, 1], a non-negative open time and at least one probe");
            }
            codes = Set.copyOf(codes);
        }

        public static CircuitSettings defaults() {
            return new CircuitSettings(true, Duration.ofSeconds(60), 20, 0.5, Duration.ofSeconds(30), 5,
                    Set.of(ErrorCode.LLM_UNAVAILABLE, ErrorCode.LLM_TIMEOUT));
        }
    }

    public ProviderGateSettings {
        if (defaultWindow.toMillis() < 1 || signalInterval.toMillis() < 1 || checkInterval.toMillis() < 1 || partitions < 1
                || maxScopes < 1 || idleExpiry.toMillis() < 1) {
            throw new IllegalArgumentException("the provider gate needs positive intervals, windows, partitions and scopes");
        }
    }

    public static ProviderGateSettings defaults() {
        return new ProviderGateSettings(true, ProviderScope.By.PROVIDER_MODEL, true, Duration.ofMinutes(1),
                CircuitSettings.defaults(), Duration.ofSeconds(1), Duration.ofMillis(100), 4, 1_000, Duration.ofDays(1),
                RetryBudgetSettings.defaults());
    }

    public ProviderGateSettings withCircuit(CircuitSettings circuit) {
        return new ProviderGateSettings(enabled, scope, pacing, defaultWindow, circuit, signalInterval, checkInterval,
                partitions, maxScopes, idleExpiry, budget);
    }

    public ProviderGateSettings withPartitions(int partitions) {
        return new ProviderGateSettings(enabled, scope, pacing, defaultWindow, circuit, signalInterval, checkInterval,
                partitions, maxScopes, idleExpiry, budget);
    }

    public ProviderGateSettings withEnabled(boolean enabled) {
        return new ProviderGateSettings(enabled, scope, pacing, defaultWindow, circuit, signalInterval, checkInterval,
                partitions, maxScopes, idleExpiry, budget);
    }

    public ProviderGateSettings withBudget(RetryBudgetSettings budget) {
        return new ProviderGateSettings(enabled, scope, pacing, defaultWindow, circuit, signalInterval, checkInterval,
                partitions, maxScopes, idleExpiry, budget);
    }
}
