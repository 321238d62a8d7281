package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;

/**
 * The vat-envelope dialect's result envelope: {@code AgentResult} / {@code StatefulAgentResult} with status {@code success},
 * {@code error} or {@code in-progress}, bare, as {@code {result}} (one-shot output) or as
 * {@code {reply, sessionState, result}} (conversational output: all three required, as the envelope types it).
 */
final class VatEnvelopeDialect implements JsonDialect {
    private static final Set<String> STATUSES = Set.of("success", "error", "in-progress");

    @Override
    public Dialect id() {
        return Dialect.VAT_ENVELOPE;
    }

    @Override
    public String shape() {
        return "a vat-envelope result (status success/error/in-progress, or {result})";
    }

    /** Status success, error or in-progress; or no status and a {@code result} object whose status is one of those. */
    @Override
    public boolean detect(JsonFields root) {
        String status = JsonDialect.status(root);
        if (status != null) {
            return STATUSES.contains(status);
        }
        JsonNode result = root.node().get("result");
        return result != null && result.isObject() && result.path("status").isTextual()
                && STATUSES.contains(result.get("status").asText());
    }

    @Override
    public AgentResult.Builder normalize(JsonFields root, RecordContext context) {
        JsonFields result = root.has("result") ? root.object("result") : root;
        AgentResult.Builder canonical = AgentResult.newBuilder()
                .setConfidence(result.fraction("confidence"))
                .setExecution(execution(result.object("execution")));
        String status = result.requiredText("status");
        if (result != root) {
            output(root, status, canonical);
        }
        List<String> warnings = result.strings("warnings");
        return switch (status) {
            case "success" -> canonical.setOutcome(Success.newBuilder().setData(result.jsonText("data"))
                    .setWarnings(warnings).build());
            case "error" -> canonical.setOutcome(Failure.newBuilder()
                    .setError(ErrorInfo.newBuilder().setCode(errorCode(result)).build())
                    .setWarnings(warnings).build());
            case "in-progress" -> canonical.setOutcome(InProgress.newBuilder().setProgress(result.jsonText("metadata"))
                    .setWarnings(warnings).build());
            default -> throw new InvalidInputException(WRONG_TYPE, result.at("status") + " is '" + status
                    + "': expected success, error or in-progress");
        };
    }

    /**
     * The output around a wrapped result, as the envelope types it: with {@code reply} or {@code sessionState}, a
     * {@code ConversationalAgentOutput}, where {@code reply} (a string) and {@code sessionState} (any JSON, its key
     * present) are both required; with neither, a {@code OneShotAgentOutput}, whose {@code AgentResult} is success
     * or error, never in progress.
     */
    private static void output(JsonFields root, String status, AgentResult.Builder canonical) {
        boolean hasReply = root.has("reply");
        boolean hasSessionState = root.node().has("sessionState");
        if (!hasReply && !hasSessionState) {
            if ("in-progress".equals(status)) {
                throw new InvalidInputException(MISSING_FIELD, "reply and sessionState are required: result.status is "
                        + "in-progress, and only a conversational output {reply, sessionState, result} may be in progress "
                        + "(a one-shot output's result is success or error)");
            }
            return;
        }
        if (!hasReply) {
            throw new InvalidInputException(MISSING_FIELD, "reply is required in a conversational output "
                    + "{reply, sessionState, result}");
        }
        String reply = root.text("reply");
        if (!hasSessionState) {
            throw new InvalidInputException(MISSING_FIELD, "sessionState is required in a conversational output "
                    + "{reply, sessionState, result}");
        }
        canonical.setReply(reply).setSessionState(root.jsonText("sessionState"));
    }

    private static String errorCode(JsonFields result) {
        String code = result.text("error");
        if (code == null || code.isBlank()) {
            throw new InvalidInputException(MISSING_FIELD, result.at("error") + " is required when status is error");
        }
        return code;
    }

    /** Usage of which only the total is known (the envelope's tokensUsed, a review-agent result's metrics.tokensUsed); null for null. */
    static Usage totalTokens(Long tokens) {
        return tokens == null ? null : Usage.newBuilder().setTotalTokens(tokens).build();
    }

    /** A cost of which only the reported total is known; null for null. */
    static Cost reportedTotal(BigDecimal total) {
        return total == null ? null : Cost.newBuilder().setTotal(Money.toBytes(total)).setSource(CostSource.REPORTED).build();
    }

    /**
     * The envelope's ExecutionMetadata; null when absent. Its counts are TypeScript {@code number}s: any finite value from
     * 0 up, rounded half up to a whole millisecond, token or retry.
     */
    static ExecutionMetadata execution(JsonFields execution) {
        if (execution == null) {
            return null;
        }
        return ExecutionMetadata.newBuilder()
                .setDurationMs(execution.roundedCount("durationMs"))
                .setModel(execution.text("model"))
                .setProvider(execution.text("provider"))
                .setRetryCount(execution.smallRoundedCount("retryCount"))
                .setTimestamp(JsonFields.millis(execution.isoTimestamp("timestamp")))
                .setUsage(totalTokens(execution.roundedCount("tokensUsed")))
                .setCost(reportedTotal(execution.money("cost")))
                .build();
    }
}
