package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import java.util.Locale;
import java.util.Map;

/**
 * Classifies a completion. Precedence: an explicit {@code result_type} from a runner; else the policy's rule for the
 * error's code or category; else the agent's retryable hint; else permanent. A {@code node_finished}
 * without {@code result_type} is a success (events from before the field). Pure: the caller supplies the task's failure counts.
 *
 * @param defaultPolicy the policy for agents without their own, and for workflow nodes
 * @param agentPolicies policies per agent id
 */
public record Classifier(ErrorPolicy defaultPolicy, Map<String, ErrorPolicy> agentPolicies) {

    /**
     * The classification of one completion.
     *
     * @param resultType what happened: a failure's type says whether its rule allowed a retry (before the retry limit),
     *                   ignored it (treated as a non-error) or stopped; any failure of a task stopped before is
     *                   permanent (compensatable stays compensatable)
     * @param code       the canonical code of a failure, else null
     * @param category   the category of a failure, else null
     * @param reason     why: the error message or code, the skip reason, or the outcome
     * @param decision   what to do with a failure, with its explanation; null for anything else
     */
    public record Verdict(ResultType resultType, ErrorCode code, ErrorCategory category, String reason,
                          PolicyDecision decision) {
        /** Whether the task is over: a success, a skip, a stop or an ignored failure (not a retry, not in progress). */
        public boolean isFinal() {
            return resultType != ResultType.IN_PROGRESS && (decision == null || decision.handling() != ErrorHandling.RETRY);
        }

        /** The same verdict with an amended decision. */
        public Verdict withDecision(PolicyDecision amended) {
            return new Verdict(resultType, code, category, reason, amended);
        }
    }

    public Classifier {
        agentPolicies = Map.copyOf(agentPolicies);
    }

    /** The policy that applies to an agent. */
    public ErrorPolicy policyFor(String agentId) {
        return agentId == null ? defaultPolicy : agentPolicies.getOrDefault(agentId, defaultPolicy);
    }

    /**
     * @param consecutiveBefore the task's failures in a row before this completion
     * @param totalBefore       the task's failures before this completion
     */
    public Verdict classify(AgentResult result, int consecutiveBefore, int totalBefore) {
        Object outcome = result.getOutcome();
        if (outcome instanceof Success) {
            return new Verdict(ResultType.SUCCESS, null, null, "success", null);
        }
        if (outcome instanceof Skipped skipped) {
            return new Verdict(ResultType.SKIPPED, null, null, skipped.getReason(), null);
        }
        if (outcome instanceof InProgress) {
            return new Verdict(ResultType.IN_PROGRESS, null, null, "in progress", null);
        }
        if (!(outcome instanceof Failure failure)) {
            throw new IllegalArgumentException("unknown outcome " + outcome);
        }
        ErrorInfo error = failure.getError();
        ErrorCode code = ErrorCodes.canonical(error, result.getRateLimit());
        ErrorCategory category = code.category();
        if (code == ErrorCode.UNKNOWN) {
            // Seed 002: a failed tool execution is a tool error whatever its code; the producer's own category first.
            category = error.getCategory() != null ? error.getCategory()
                    : error.getToolName() != null ? ErrorCategory.TOOL : ErrorCategory.UNKNOWN;
        }
        FailureContext context = new FailureContext(code, category, consecutiveBefore + 1, totalBefore + 1, error.getRetryable());
        ErrorPolicy policy = policyFor(result.getAgentId());
        ErrorPolicy.Rule rule = policy.rule(context);
        PolicyDecision decision = policy.decide(context, rule);
        ResultType type = switch (rule.handling()) {
            case RETRY -> ResultType.RETRYABLE_FAILURE;
            case IGNORE -> ResultType.IGNORED_FAILURE;
            case STOP -> ResultType.PERMANENT_FAILURE;
        };
        return new Verdict(type, code, category, error.getMessage() != null ? error.getMessage() : error.getCode(), decision);
    }

    /**
     * A failure of a task that was stopped before stops again, with the earlier stop reason: a stop is final, whatever
     * a later attempt's rule or count would say (the attempts are not granted afresh).
     */
    public static Verdict keptStopped(Verdict verdict, StopReason earlier) {
        if (earlier == null || verdict.decision() == null) {
            return verdict;
        }
        PolicyDecision decision = verdict.decision();
        String rule = "task stopped before (" + earlier.name().toLowerCase(Locale.ROOT) + ")";
        PolicyDecision stop = decision.stopped(rule, earlier == StopReason.RETRY_LIMIT
                ? ErrorPolicy.retryLimitText(verdict.category(), decision.consecutiveFailures(), decision.maxRetries())
                : ErrorPolicy.notRetriedText(verdict.category(), rule), earlier);
        // Stopped is stopped: whatever the rule says of this failure now (retry, ignore), the task is over, so the
        // failure is permanent. A compensatable one stays compensatable: it still goes to compensations.
        ResultType type = verdict.resultType() == ResultType.COMPENSATABLE_FAILURE ? ResultType.COMPENSATABLE_FAILURE
                : ResultType.PERMANENT_FAILURE;
        return new Verdict(type, verdict.code(), verdict.category(), verdict.reason(), stop);
    }

    /** A workflow node's completion: its {@code result_type} decides, the default policy's retry limit applies. */
    public Verdict classify(NodeFinished event, int consecutiveBefore, int totalBefore) {
        StepResultType stepType = event.getResultType();
        if (stepType == null || stepType == StepResultType.SUCCESS) {
            return new Verdict(ResultType.SUCCESS, null, null, stepType == null
                    ? "success (no result_type: an event without one is a success)" : "success", null);
        }
        FailureContext context = new FailureContext(ErrorCode.UNKNOWN, ErrorCategory.UNKNOWN, consecutiveBefore + 1,
                totalBefore + 1, null);
        String rule = "explicit result_type " + stepType.name().toLowerCase(Locale.ROOT);
        ErrorHandling handling = stepType == StepResultType.RETRYABLE_FAILURE ? ErrorHandling.RETRY : ErrorHandling.STOP;
        PolicyDecision decision = defaultPolicy.decide(context, new ErrorPolicy.Rule(handling, rule));
        ResultType type = switch (stepType) {
            case RETRYABLE_FAILURE -> ResultType.RETRYABLE_FAILURE;
            case COMPENSATABLE_FAILURE -> ResultType.COMPENSATABLE_FAILURE;
            default -> ResultType.PERMANENT_FAILURE;
        };
        String reason = event.getReason() != null ? event.getReason() : stepType.name().toLowerCase(Locale.ROOT);
        return new Verdict(type, ErrorCode.UNKNOWN, ErrorCategory.UNKNOWN, reason, decision);
    }
}
