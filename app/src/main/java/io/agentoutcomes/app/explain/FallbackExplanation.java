package io.agentoutcomes.app.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.RetryRequests;
import io.agentoutcomes.topology.fallback.FallbackChains;

/**
 * What {@code explain} says of fallback models (issue 33): the model a retry is re-run on where a context-window chain
 * decided it ({@code retry}), and the general chain declared for the result's model, which the provider gate takes
 * when that model cannot serve ({@code chain}); null where neither applies.
 */
final class FallbackExplanation {
    private FallbackExplanation() {
    }

    static JsonNode of(ClassifiedOutcome outcome, RetryPolicy policy) {
        AgentResult result = outcome.getAgentResult();
        if (policy.fallbacks().isEmpty() || result == null || result.getExecution() == null) {
            return NullNode.getInstance();
        }
        ObjectNode fallback = JsonNodeFactory.instance.objectNode();
        if (outcome.getRetryDelayMs() != null) {
            RetryRequest retry = RetryRequests.of(outcome, policy.tiers(), policy.fallbacks());
            if (retry.getFallbackProvider() != null) {
                fallback.putObject("retry").put("provider", retry.getFallbackProvider()).put("model", retry.getFallbackModel())
                        .put("cause", retry.getFallbackCause().name()).put("reason", retry.getFallbackReason());
            }
        }
        policy.fallbacks().chain(FallbackChains.Kind.GENERAL, result.getExecution().getProvider(), result.getExecution().getModel())
                .ifPresent(chain -> fallback.putObject("chain").put("setting", chain.setting()).put("when", "a due retry of "
                        + chain.from() + " is re-run on the first model of the chain that can serve it while " + chain.from()
                        + "'s circuit is open or its request window or daily limit is exhausted (decided by the provider gate "
                        + "when the retry is due, not here)"));
        return fallback.isEmpty() ? NullNode.getInstance() : fallback;
    }
}
