package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.fallback.FallbackChains;
import java.time.Duration;
import java.util.Optional;

/**
 * A request too large for its model ({@code llm-token-limit}) is not retried on that model: it would fail the same way.
 * Where a context-window chain is declared for the model ({@code fallback.context.<provider>/<model>=...}), it is a retry
 * on the first model of the chain instead, due at once, with the chain's setting as its rule; the retry limit still
 * applies. Without a chain the decision is the policy's, as before (seed 000: non-retryable).
 */
final class ContextWindowFallback {
    private ContextWindowFallback() {
    }

    /** The verdict with a declared context-window chain applied; any other verdict as it is. */
    static Classifier.Verdict applied(Classifier.Verdict verdict, AgentResult result, RetryPolicy policy, boolean stoppedBefore) {
        PolicyDecision decision = verdict.decision();
        if (verdict.code() != ErrorCode.LLM_TOKEN_LIMIT || decision == null || stoppedBefore
                || decision.stopReason() == StopReason.RETRY_LIMIT || policy.fallbacks().isEmpty()) {
            return verdict;
        }
        Optional<FallbackChains.Chain> chain = chain(result, policy.fallbacks());
        if (chain.isEmpty()) {
            return verdict;
        }
        FailureContext failure = new FailureContext(verdict.code(), verdict.category(), decision.consecutiveFailures(),
                decision.totalFailures(), null);
        PolicyDecision retry = policy.classifier().policyFor(result.getAgentId())
                .decide(failure, new ErrorPolicy.Rule(ErrorHandling.RETRY, chain.get().setting()));
        if (retry.handling() != ErrorHandling.RETRY) {
            return new Classifier.Verdict(ResultType.PERMANENT_FAILURE, verdict.code(), verdict.category(), verdict.reason(), retry);
        }
        FallbackChains.Model to = chain.get().to().get(0);
        retry = retry.withReason(retry.reason() + " on " + to)
                .withDelay(new Backoff.Delay(Duration.ZERO, why(chain.get())), RetryAction.WAIT);
        return new Classifier.Verdict(ResultType.RETRYABLE_FAILURE, verdict.code(), verdict.category(), verdict.reason(), retry);
    }

    /** Sets the fallback a retry of a token-limit failure is re-run on, where a context-window chain is declared. */
    static void carried(RetryRequest retry, AgentResult result, FallbackChains fallbacks) {
        if (!ErrorCode.LLM_TOKEN_LIMIT.value().equals(retry.getErrorCode()) || result == null) {
            return;
        }
        chain(result, fallbacks).ifPresent(chain -> {
            retry.setFallbackProvider(chain.to().get(0).provider());
            retry.setFallbackModel(chain.to().get(0).model());
            retry.setFallbackCause(FallbackCause.CONTEXT_WINDOW);
            retry.setFallbackReason(why(chain));
        });
    }

    private static String why(FallbackChains.Chain chain) {
        return "context window of " + chain.from() + " exceeded: re-run now on " + chain.to().get(0) + " (" + chain.setting() + ")";
    }

    private static Optional<FallbackChains.Chain> chain(AgentResult result, FallbackChains fallbacks) {
        ExecutionMetadata execution = result.getExecution();
        ProviderData data = result.getProviderData();
        String provider = present(execution == null ? null : execution.getProvider(), data == null ? null : data.getProvider());
        String model = present(execution == null ? null : execution.getModel(), data == null ? null : data.getModel());
        return fallbacks.chain(FallbackChains.Kind.CONTEXT, provider, model);
    }

    private static String present(String first, String second) {
        return first != null && !first.isBlank() ? first : second;
    }
}
