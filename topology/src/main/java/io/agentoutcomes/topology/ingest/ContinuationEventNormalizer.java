package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.ContinuationDecision;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.StopReason;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A loop's {@code ContinuationEvaluated} event as JSON: {@code agentId}, {@code parentAgentId}, {@code step},
 * {@code shouldContinue}, {@code stopReason} (its value, e.g. {@code retry_limit}), {@code resolvedBy}, and
 * optionally the outcome's {@code decision} and {@code evaluations} ({@code ContinuationOutcome::toArray}).
 * Decisions are accepted as their case names ({@code ForbidContinuation}) or snake case.
 */
public final class ContinuationEventNormalizer {
    private ContinuationEventNormalizer() {
    }

    /** The canonical event for a JSON value (or a CloudEvent wrapping one) with its record context. */
    public static ContinuationEvaluated normalize(byte[] json, RecordContext context) {
        JsonInput input = CloudEvents.read(json, context);
        return normalize(input.root(), input.context());
    }

    /** The canonical event for a parsed JSON object with its record context. */
    static ContinuationEvaluated normalize(JsonNode json, RecordContext context) {
        JsonFields root = new JsonFields(json, "");
        Integer step = root.smallCount("step");
        Boolean shouldContinue = root.bool("shouldContinue");
        if (step == null || shouldContinue == null) {
            throw new InvalidInputException(MISSING_FIELD, (step == null ? "step" : "shouldContinue") + " is required");
        }
        String decision = root.text("decision");
        return ContinuationEvaluated.newBuilder()
                .setAgentId(context.fieldHeaderOrKey(root.text("agentId"), HeaderNames.AGENT_ID, context.cloudEventSource(),
                        "source", "agentId"))
                .setParentAgentId(root.text("parentAgentId"))
                .setStep(step)
                .setShouldContinue(shouldContinue)
                .setDecision(decision == null ? null : decision(decision, "decision"))
                .setStopReason(stopReason(root.requiredText("stopReason")))
                .setResolvedBy(root.requiredText("resolvedBy"))
                .setEvaluations(root.objects("evaluations", evaluation -> ContinuationEvaluation.newBuilder()
                        .setCriterion(evaluation.requiredText("criterion"))
                        .setDecision(decision(evaluation.requiredText("decision"), evaluation.at("decision")))
                        .setReason(evaluation.requiredText("reason"))
                        .setContext(evaluation.jsonText("context"))
                        .build()))
                .setTimestamp(JsonFields.millis(root.isoTimestamp("timestamp")))
                .build();
    }

    /** Seed 002's stop reasons, in its order. */
    private static final Set<StopReason> LOOP_STOP_REASONS = EnumSet.complementOf(EnumSet.of(StopReason.BUDGET_EXCEEDED,
            StopReason.RETRY_BUDGET_EXHAUSTED));

    /** {@code ForbidContinuation}, {@code forbid_continuation} and {@code FORBID_CONTINUATION} all name one decision. */
    private static ContinuationDecision decision(String text, String path) {
        String name = text.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
        try {
            return ContinuationDecision.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(WRONG_TYPE, path + " is '" + text + "': expected one of "
                    + Arrays.stream(ContinuationDecision.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    /**
     * The stop reasons a continuation event may carry: seed 002's, completed, steps_limit, ..., user_requested; not
     * the pipeline's own {@code budget_exceeded}, which no agent loop reports.
     */
    private static StopReason stopReason(String text) {
        try {
            StopReason reason = StopReason.valueOf(text.toUpperCase(Locale.ROOT));
            if (LOOP_STOP_REASONS.contains(reason)) {
                return reason;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw new InvalidInputException(WRONG_TYPE, "stopReason is '" + text + "': expected one of "
                + LOOP_STOP_REASONS.stream().map(r -> r.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
    }
}
