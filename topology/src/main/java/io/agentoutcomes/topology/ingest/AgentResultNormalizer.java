package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.UNKNOWN_DIALECT;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.HeaderNames;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Turns an agent result published as JSON, in any of the {@link #DIALECTS}, into the canonical {@link AgentResult}.
 * The dialect comes from the {@code dialect} header when there is one, else from the shape; a record of no known shape
 * is rejected, not guessed. Identity a dialect lacks comes from fields, else headers, else the record key.
 */
public final class AgentResultNormalizer {
    /**
     * The JSON dialects, in the order their shapes are tried (a review-agent {@code success} with {@code agentId} before
     * a vat-envelope's bare {@code success}); the refusals name them in this order.
     */
    static final List<JsonDialect> DIALECTS = List.of(new ReviewAgentDialect(), new VatEnvelopeDialect(), new FlatAgentsDialect());

    private AgentResultNormalizer() {
    }

    /** The canonical record for a JSON value (or a CloudEvent wrapping one) with its record context. */
    public static AgentResult normalize(byte[] json, RecordContext context) {
        JsonInput input = CloudEvents.read(json, context);
        return normalize(input.root(), input.context());
    }

    /** The canonical record for a parsed JSON object with its record context. */
    static AgentResult normalize(JsonNode json, RecordContext context) {
        JsonFields root = new JsonFields(json, "");
        JsonDialect dialect = dialectOf(root, context);
        return identify(dialect.normalize(root, context), root, context).setDialect(dialect.id()).build();
    }

    /** The dialect named by the header, else the first whose shape matches. */
    static JsonDialect dialectOf(JsonFields root, RecordContext context) {
        String named = context.header(HeaderNames.DIALECT);
        if (named != null) {
            return dialectNamed(named);
        }
        for (JsonDialect dialect : DIALECTS) {
            if (dialect.detect(root)) {
                return dialect;
            }
        }
        String status = JsonDialect.status(root);
        List<String> shapes = DIALECTS.stream().map(JsonDialect::shape).toList();
        throw new InvalidInputException(UNKNOWN_DIALECT, "the record matches no known dialect"
                + (status != null ? " (status '" + status + "')" : "") + ": expected "
                + String.join(", ", shapes.subList(0, shapes.size() - 1)) + " or " + shapes.get(shapes.size() - 1));
    }

    private static JsonDialect dialectNamed(String name) {
        String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (JsonDialect dialect : DIALECTS) {
            if (dialect.id().name().equals(normalized)) {
                return dialect;
            }
        }
        throw new InvalidInputException(UNKNOWN_DIALECT, "dialect header '" + name + "' names no JSON dialect: expected one of "
                + DIALECTS.stream().map(d -> d.id().name().toLowerCase(Locale.ROOT).replace('_', '-'))
                        .collect(Collectors.joining(", ")));
    }

    /** Identity common to every dialect: fields (camelCase or snake_case), else headers, else the key. */
    private static AgentResult.Builder identify(AgentResult.Builder result, JsonFields root, RecordContext context) {
        String agentId = result.hasAgentId() ? result.getAgentId() : text(root, "agentId", "agent_id");
        return result
                .setResultId(context.resultId(text(root, "resultId", "result_id")))
                .setAgentId(context.fieldOrHeader(agentId, HeaderNames.AGENT_ID, context.cloudEventSource(), "source",
                        "agent id"))
                .setTaskId(context.fieldHeaderOrKey(text(root, "taskId", "task_id"), HeaderNames.TASK_ID,
                        context.cloudEventSubject(), "subject", "task id"))
                .setJobId(context.fieldOrHeaderOrNull(text(root, "jobId", "job_id"), HeaderNames.JOB_ID))
                .setNodeId(context.fieldOrHeaderOrNull(text(root, "nodeId", "node_id"), HeaderNames.NODE_ID))
                .setAttempt(context.attempt(root.smallCount("attempt")))
                .setAttribution(JsonAttribution.read(root.node()))
                .setRecordTimestamp(JsonFields.millis(context.timestamp()));
    }

    private static String text(JsonFields fields, String camel, String snake) {
        String value = fields.text(camel);
        return value != null ? value : fields.text(snake);
    }
}
