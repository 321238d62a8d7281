package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.FailureStage;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import java.util.List;
import java.util.Set;

/**
 * The review-agent dialect's {@code AgentResult}: status {@code success} (findings), {@code failure} (error message, failure stage,
 * partial findings) or {@code skipped} (reason), with {@code agentId} and {@code metrics}. Its failures carry
 * a message but no error code: their code is {@value #NO_CODE}. Validated as the dialect's Zod schema does:
 * {@code metrics} (with {@code durationMs} and {@code filesProcessed}) always, {@code findings} on success,
 * {@code error} and {@code failureStage} on failure, {@code reason} on skip, and in every finding {@code severity},
 * {@code file}, {@code message} and {@code sourceAgent}; a violation is rejected naming the field. Values as the schema
 * types them: {@code severity} is one of {@code error}, {@code warning}, {@code info} as written (a {@code z.enum}),
 * a finding's {@code metadata} an object ({@code z.record}), no field null ({@code .optional()} lets a field be
 * absent, never null), and every {@code z.number()} any finite number from 0 up, rounded half up to a whole.
 */
final class ReviewAgentDialect implements JsonDialect {
    private static final Set<String> ONLY_STATUSES = Set.of("failure", "skipped");
    /** The dialect's {@code AgentMetricsSchema}: what every result's metrics must hold. */
    private static final List<String> REQUIRED_METRICS = List.of("durationMs", "filesProcessed");
    /** The fields of the schema's result, of its metrics and of a finding: none of them may be null. */
    private static final List<String> RESULT_FIELDS = List.of("status", "agentId", "findings", "error", "failureStage",
            "partialFindings", "reason", "metrics");
    private static final List<String> METRICS_FIELDS = List.of("durationMs", "filesProcessed", "tokensUsed",
            "estimatedCostUsd");
    private static final List<String> FINDING_FIELDS = List.of("severity", "file", "line", "endLine", "message",
            "suggestion", "ruleId", "sourceAgent", "fingerprint", "metadata");
    /** The error code of a failure that gives none. */
    static final String NO_CODE = "unknown";

    @Override
    public Dialect id() {
        return Dialect.REVIEW_AGENT;
    }

    @Override
    public String shape() {
        return "a review-agent result (status success/failure/skipped with agentId)";
    }

    /** Status failure or skipped; or success with {@code agentId}, {@code findings} or {@code metrics}. */
    @Override
    public boolean detect(JsonFields root) {
        String status = JsonDialect.status(root);
        return status != null && (ONLY_STATUSES.contains(status)
                || status.equals("success") && (root.has("agentId") || root.has("findings") || root.has("metrics")));
    }

    @Override
    public AgentResult.Builder normalize(JsonFields root, RecordContext context) {
        refuseNulls(root, RESULT_FIELDS);
        AgentResult.Builder canonical = AgentResult.newBuilder();
        String agentId = root.text("agentId");
        if (agentId != null) {
            canonical.setAgentId(agentId);
        }
        String status = root.requiredText("status");
        canonical = switch (status) {
            case "success" -> canonical.setOutcome(Success.newBuilder().setFindings(findings(root, "findings", true)).build());
            case "failure" -> canonical.setOutcome(Failure.newBuilder()
                    .setError(ErrorInfo.newBuilder().setCode(NO_CODE).setMessage(errorMessage(root)).build())
                    .setStage(stage(root))
                    .setPartialFindings(findings(root, "partialFindings", false))
                    .build());
            case "skipped" -> canonical.setOutcome(Skipped.newBuilder().setReason(root.requiredText("reason")).build());
            default -> throw new InvalidInputException(WRONG_TYPE, "status is '" + status
                    + "': expected success, failure or skipped");
        };
        JsonFields metrics = root.object("metrics");
        if (metrics == null) {
            throw new InvalidInputException(MISSING_FIELD, "metrics is required (every review-agent result carries its metrics)");
        }
        refuseNulls(metrics, METRICS_FIELDS);
        for (String required : REQUIRED_METRICS) {
            if (!metrics.has(required)) {
                throw new InvalidInputException(MISSING_FIELD, metrics.at(required) + " is required");
            }
        }
        metrics.roundedCount("filesProcessed");
        return canonical.setExecution(execution(metrics))
                .setMetadata(jsonTextWithout(metrics.node(), "durationMs", "tokensUsed", "estimatedCostUsd"));
    }

    private static String errorMessage(JsonFields root) {
        String error = root.text("error");
        if (error == null || error.isBlank()) {
            throw new InvalidInputException(MISSING_FIELD, "error is required and non-empty when status is failure");
        }
        return error;
    }

    private static FailureStage stage(JsonFields root) {
        String stage = root.text("failureStage");
        if (stage == null) {
            throw new InvalidInputException(MISSING_FIELD, "failureStage is required when status is failure: "
                    + "preflight, exec or postprocess");
        }
        return switch (stage) {
            case "preflight" -> FailureStage.PREFLIGHT;
            case "exec" -> FailureStage.EXEC;
            case "postprocess" -> FailureStage.POSTPROCESS;
            default -> throw new InvalidInputException(WRONG_TYPE, "failureStage is '" + stage
                    + "': expected preflight, exec or postprocess");
        };
    }

    private static ExecutionMetadata execution(JsonFields metrics) {
        return ExecutionMetadata.newBuilder()
                .setDurationMs(metrics.roundedCount("durationMs"))
                .setUsage(VatEnvelopeDialect.totalTokens(metrics.roundedCount("tokensUsed")))
                .setCost(VatEnvelopeDialect.reportedTotal(metrics.money("estimatedCostUsd")))
                .build();
    }

    /** @param required whether the list must be there ({@code findings} on success; {@code partialFindings} defaults to []) */
    private static List<Finding> findings(JsonFields root, String name, boolean required) {
        if (required && !root.has(name)) {
            throw new InvalidInputException(MISSING_FIELD, name + " is required when status is success (it may be empty)");
        }
        return root.objects(name, finding -> Finding.newBuilder()
                .setSeverity(severity(refuseNulls(finding, FINDING_FIELDS)))
                .setFile(finding.requiredText("file"))
                .setLine(finding.smallRoundedCount("line"))
                .setEndLine(finding.smallRoundedCount("endLine"))
                .setMessage(finding.requiredText("message"))
                .setSuggestion(finding.text("suggestion"))
                .setRuleId(finding.text("ruleId"))
                .setSourceAgent(finding.requiredText("sourceAgent"))
                .setFingerprint(finding.text("fingerprint"))
                .setMetadata(metadata(finding))
                .build());
    }

    /** {@code z.enum(['error', 'warning', 'info'])}: those three spellings, no other case. */
    private static Severity severity(JsonFields finding) {
        String severity = finding.requiredText("severity");
        return switch (severity) {
            case "error" -> Severity.ERROR;
            case "warning" -> Severity.WARNING;
            case "info" -> Severity.INFO;
            default -> throw new InvalidInputException(WRONG_TYPE, finding.at("severity") + " is '" + severity
                    + "': expected error, warning or info");
        };
    }

    /** {@code z.record(z.unknown()).optional()}: an object, kept as JSON text; null when absent. */
    private static String metadata(JsonFields finding) {
        JsonFields metadata = finding.object("metadata");
        return metadata == null ? null : metadata.node().toString();
    }

    /** The dialect's schema has no nullable field: a field it defines, present as null, is refused. */
    private static JsonFields refuseNulls(JsonFields fields, List<String> names) {
        for (String name : names) {
            JsonNode value = fields.node().get(name);
            if (value != null && value.isNull()) {
                throw new InvalidInputException(WRONG_TYPE, fields.at(name)
                        + " is null: the review-agent schema allows no null (leave an optional field out)");
            }
        }
        return fields;
    }

    /** The object without the named fields, or null when nothing is left (for "everything else" metadata). */
    private static String jsonTextWithout(JsonNode object, String... names) {
        ObjectNode copy = ((ObjectNode) object).deepCopy();
        copy.remove(List.of(names));
        return copy.isEmpty() ? null : copy.toString();
    }
}
