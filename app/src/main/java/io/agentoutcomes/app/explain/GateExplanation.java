package io.agentoutcomes.app.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.provider.ProviderScope;
import io.agentoutcomes.topology.provider.RetryBudgetSettings;

/**
 * What {@code explain} says of the provider gate a retry would pass: its scope, or why it goes straight on, and the
 * rules that can hold it there (the circuit, the provider's advertised budget, the retry budget). Explain sees one
 * record, not the fleet: it names the rules and their settings, not whether they hold the retry now.
 */
final class GateExplanation {
    private GateExplanation() {
    }

    /** The gate's part of an explanation; JSON null where the outcome is no retry. */
    static JsonNode of(ClassifiedOutcome outcome, ProviderGateSettings settings) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (outcome.getRetryDelayMs() == null) {
            return json.nullNode();
        }
        ObjectNode gate = json.objectNode();
        ProviderScope scope = outcome.getAgentResult() == null ? null : ProviderScope.of(outcome.getAgentResult(), settings.scope());
        if (!settings.enabled()) {
            return gate.put("gated", false).put("why", "provider.gate.enabled=false: straight to retry-ready");
        }
        if (scope == null) {
            return gate.put("gated", false).put("why", "names no provider: straight to retry-ready");
        }
        if (outcome.getDecision() != null && outcome.getDecision().getAction() == RetryAction.SWITCH_PROVIDER) {
            return gate.put("gated", false).put("scope", scope.toString())
                    .put("why", "switches provider: straight to retry-ready, outside the scope's pacing and retry budget");
        }
        gate.put("gated", true).put("scope", scope.toString());
        gate.put("circuit", settings.circuit().enabled() ? "held while the scope's circuit is open (provider.circuit.*)" : "off");
        gate.put("pacing", settings.pacing() ? "released no faster than the request budget the provider advertised last" : "off");
        RetryBudgetSettings budget = settings.budget();
        gate.put("retryBudget", !budget.enabled() ? "off (provider.retry.budget.enabled=false)" : String.format(
                "released while the scope's retries in the last %d s are under %s %% of its requests in them plus %s a "
                        + "second (provider.retry.budget.percent, .min.per.second, .window.ms); held oldest first beyond it; "
                        + "stopped as retry_budget_exhausted after %d s held so (provider.retry.budget.max.hold.ms)",
                budget.window().toSeconds(), number(budget.percent()), number(budget.minPerSecond()), budget.maxHold().toSeconds()));
        return gate;
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
