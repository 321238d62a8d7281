package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.InvalidInputException.Kind.UNKNOWN_DIALECT;
import static io.agentoutcomes.topology.ingest.InvalidInputException.Kind.UNPARSEABLE_JSON;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.HeaderNames;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns an agent result published as JSON, in any seed dialect, into the canonical {@link AgentResult}. The dialect
 * comes from the {@code dialect} header when there is one, else from the shape; a record of no known shape is
 * rejected, not guessed. Identity a dialect lacks comes from fields, else headers, else the record key.
 */
public final class AgentResultNormalizer {
    /** The parser of every JSON input topic, within {@link JsonLimits}. */
    static final JsonMapper JSON = JsonLimits.mapper();

    private static final Set<String> VAT_STATUSES = Set.of("success", "error", "in-progress");
    private static final Set<String> REVIEW_ONLY_STATUSES = Set.of("failure", "skipped");
    private static final String[] FLATAGENTS_FIELDS = {"output", "content", "usage", "cost", "error", "finish_reason",
            "rate_limit", "provider_data"};

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
        Dialect dialect = dialectOf(root, context);
        AgentResult.Builder result = switch (dialect) {
            case VAT_ENVELOPE -> VatEnvelope.toCanonical(root);
            case FLATAGENTS -> FlatAgentsResult.toCanonical(root, context.timestamp() == null ? Instant.EPOCH : context.timestamp());
            case REVIEW_AGENT -> ReviewAgentResult.toCanonical(root);
            case NATIVE -> throw new InvalidInputException(UNKNOWN_DIALECT,
                    "dialect NATIVE is Avro: publish it to the Avro topic, not as JSON");
        };
        return identify(result, root, context).setDialect(dialect).build();
    }

    /** Parses a JSON object; anything else is unparseable input. */
    static JsonNode parseObject(byte[] json) {
        JsonNode node;
        if (json.length > JsonLimits.MAX_DOCUMENT_BYTES) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: longer than " + JsonLimits.MAX_DOCUMENT_BYTES + " bytes");
        }
        try {
            node = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, JsonLimits.reason(e), e);
        } catch (RuntimeException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: " + firstLine(e.getMessage()), e);
        } catch (java.io.IOException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: " + e.getMessage(), e);
        }
        if (node == null || node.isMissingNode()) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "empty record: expected a JSON object");
        }
        return requireObject(node);
    }

    /** The node when it is a JSON object; anything else is unparseable input. */
    static JsonNode requireObject(JsonNode node) {
        if (!node.isObject()) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "expected a JSON object, got " + node.getNodeType()
                    .name().toLowerCase(Locale.ROOT));
        }
        return node;
    }

    /** The dialect named by the header, else the one the shape matches. */
    static Dialect dialectOf(JsonFields root, RecordContext context) {
        String named = context.header(HeaderNames.DIALECT);
        if (named != null) {
            return dialectNamed(named);
        }
        String status = root.node().path("status").isTextual() ? root.node().get("status").asText() : null;
        if (status != null && (REVIEW_ONLY_STATUSES.contains(status)
                || status.equals("success") && (root.has("agentId") || root.has("findings") || root.has("metrics")))) {
            return Dialect.REVIEW_AGENT;
        }
        if (status != null && VAT_STATUSES.contains(status)) {
            return Dialect.VAT_ENVELOPE;
        }
        JsonNode result = root.node().get("result");
        if (status == null && result != null && result.isObject() && result.path("status").isTextual()
                && VAT_STATUSES.contains(result.get("status").asText())) {
            return Dialect.VAT_ENVELOPE;
        }
        if (status == null && Arrays.stream(FLATAGENTS_FIELDS).anyMatch(root.node()::has)) {
            return Dialect.FLATAGENTS;
        }
        throw new InvalidInputException(UNKNOWN_DIALECT, "the record matches no known dialect"
                + (status != null ? " (status '" + status + "')" : "")
                + ": expected a seed 000 envelope (status success/error/in-progress, or {result}), a seed 003 result "
                + "(output, usage, cost, error, ...) or a seed 004 result (status success/failure/skipped with agentId)");
    }

    private static Dialect dialectNamed(String name) {
        String normalized = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (Dialect dialect : Dialect.values()) {
            if (dialect.name().equals(normalized) && dialect != Dialect.NATIVE) {
                return dialect;
            }
        }
        throw new InvalidInputException(UNKNOWN_DIALECT, "dialect header '" + name + "' names no JSON dialect: expected one of "
                + Arrays.stream(Dialect.values()).filter(d -> d != Dialect.NATIVE)
                        .map(d -> d.name().toLowerCase(Locale.ROOT).replace('_', '-')).collect(Collectors.joining(", ")));
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
                .setRecordTimestamp(JsonFields.millis(context.timestamp()));
    }

    static String text(JsonFields fields, String camel, String snake) {
        String value = fields.text(camel);
        return value != null ? value : fields.text(snake);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
