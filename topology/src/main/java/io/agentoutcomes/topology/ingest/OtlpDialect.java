package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.TOO_LARGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.google.protobuf.ByteString;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.analytics.TokenNormalizer;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code OTLP} dialect: a GenAI span of an operation that completes work becomes one canonical result; any other
 * span is skipped (null). Tokens are counted once per invocation: a model call's span ({@link #MODEL_CALLS}) carries
 * its own; an {@code invoke_agent} span's usage is counted only when the agent is remote (span kind {@code CLIENT}: its
 * model calls are not spans of this trace), as an in-process agent's ({@code INTERNAL}) sums model calls that are
 * spans of their own; a tool's span carries none. docs/ingestion.md, "OTLP", has the attribute table.
 */
final class OtlpDialect {
    static final String INVOKE_AGENT = "invoke_agent";
    static final String EXECUTE_TOOL = "execute_tool";
    /** The conventions' operations of one call to a model, whose spans carry that call's tokens. */
    static final Set<String> MODEL_CALLS = Set.of("chat", "text_completion", "generate_content", "embeddings");
    /** The longest span status message kept (free text: the error's message). */
    static final int MAX_MESSAGE_CHARS = 8192;
    private static final HexFormat HEX = HexFormat.of();

    private OtlpDialect() {
    }

    /** The canonical result of a span, or null when the span is not a GenAI span that completes work. */
    static AgentResult map(OtlpSpan entry, RecordContext context) {
        if (entry.invalid() != null) {
            throw entry.invalid();
        }
        Span span = entry.span();
        OtlpAttributes attributes = OtlpAttributes.of(entry);
        String operation = attributes.text(OtlpAttribute.OPERATION);
        boolean modelCall = operation != null && MODEL_CALLS.contains(operation);
        if (!modelCall && !INVOKE_AGENT.equals(operation) && !EXECUTE_TOOL.equals(operation)) {
            return null;
        }
        String traceId = id(span.getTraceId(), 16, entry, "traceId");
        String spanId = id(span.getSpanId(), 8, entry, "spanId");
        String parent = span.getParentSpanId().isEmpty() ? null : id(span.getParentSpanId(), 8, entry, "parentSpanId");
        String agent = attributes.text(OtlpAttribute.AGENT);
        agent = agent != null ? agent : attributes.text(OtlpAttribute.SERVICE);
        if (agent == null) {
            throw new InvalidInputException(MISSING_FIELD, "agent id is missing: " + entry.at() + " has no gen_ai.agent.id, "
                    + "gen_ai.agent.name or resource service.name");
        }
        String task = attributes.text(OtlpAttribute.TASK);
        if (task == null) {
            // The invocation a call belongs to: an agent's span is its own, any other span's is the span it was made from.
            task = traceId + "/" + (INVOKE_AGENT.equals(operation) || parent == null ? spanId : parent);
        }
        Long attempt = attributes.count(OtlpAttribute.ATTEMPT);
        if (attempt != null && attempt > InputLimits.MAX_ATTEMPT) {
            throw new InvalidInputException(OUT_OF_RANGE, entry.at() + " attempt is " + attempt + ": more than " + InputLimits.MAX_ATTEMPT);
        }
        String provider = attributes.text(OtlpAttribute.PROVIDER);
        boolean counted = modelCall || (INVOKE_AGENT.equals(operation) && span.getKind() == Span.SpanKind.SPAN_KIND_CLIENT);
        AgentResult.Builder result = AgentResult.newBuilder()
                .setResultId(traceId + "/" + spanId)
                .setAgentId(agent)
                .setTaskId(task)
                .setAttempt(attempt == null ? 0 : attempt.intValue())
                .setDialect(Dialect.OTLP)
                .setRecordTimestamp(JsonFields.millis(context.timestamp()))
                .setExecution(ExecutionMetadata.newBuilder()
                        .setProvider(provider)
                        .setModel(attributes.text(OtlpAttribute.MODEL))
                        .setRequestId(attributes.text(OtlpAttribute.REQUEST_ID))
                        .setDurationMs(durationMs(entry))
                        .setTimestamp(span.getStartTimeUnixNano() == 0 ? null : span.getStartTimeUnixNano() / 1_000_000)
                        .setUsage(counted ? usage(attributes, provider) : null)
                        .build());
        boolean failed = span.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR
                || attributes.has(OtlpAttribute.ERROR_TYPE);
        String message = span.getStatus().getMessage();
        if (message.length() > MAX_MESSAGE_CHARS) {
            throw new InvalidInputException(TOO_LARGE, entry.at() + " status message is " + message.length()
                    + " characters long: more than " + MAX_MESSAGE_CHARS);
        }
        if (failed) {
            return result.setOutcome(Failure.newBuilder().setError(error(attributes, operation, message)).build()).build();
        }
        return result.setOutcome(Success.newBuilder().build()).build();
    }

    /**
     * The span's error as an agent would report it: {@code error.type} as the code (the conventions' {@code _OTHER}
     * when the span only says ERROR), the HTTP status ({@code error.type} itself when it is one, as the conventions
     * write an HTTP error); classification maps both to the canonical code as for every dialect. An exception type
     * naming a timeout ({@code java.net.SocketTimeoutException}, {@code httpx.ReadTimeout}) is of category timeout.
     */
    private static ErrorInfo error(OtlpAttributes attributes, String operation, String message) {
        String type = attributes.text(OtlpAttribute.ERROR_TYPE);
        Long status = attributes.count(OtlpAttribute.HTTP_STATUS);
        if (status == null && type != null && type.matches("[1-5][0-9][0-9]")) {
            status = Long.valueOf(type);
        }
        if (status != null && status > 999) {
            throw new InvalidInputException(OUT_OF_RANGE, "http.response.status_code is " + status + ": not an HTTP status");
        }
        boolean timeout = type != null && type.toLowerCase(Locale.ROOT).contains("timeout");
        return ErrorInfo.newBuilder()
                .setCode(type != null ? type : "_OTHER")
                .setType(type)
                .setMessage(message.isEmpty() ? null : message)
                .setStatusCode(status == null ? null : status.intValue())
                .setCategory(timeout ? ErrorCategory.TIMEOUT : null)
                .setToolName(EXECUTE_TOOL.equals(operation) ? attributes.text(OtlpAttribute.TOOL_NAME) : null)
                .build();
    }

    /**
     * The span's token counts. The conventions count cached tokens inside {@code input_tokens}; for a provider that
     * counts them apart (Anthropic, Bedrock) they are taken out when they fit, so the pipeline reads the provider's own
     * way ({@link TokenNormalizer}) and no cached token counts twice. Null when the span carries no count.
     */
    private static Usage usage(OtlpAttributes attributes, String provider) {
        Long input = attributes.count(OtlpAttribute.INPUT_TOKENS);
        Long output = attributes.count(OtlpAttribute.OUTPUT_TOKENS);
        Long cacheRead = attributes.count(OtlpAttribute.CACHE_READ_TOKENS);
        Long cacheWrite = attributes.count(OtlpAttribute.CACHE_WRITE_TOKENS);
        Long reasoning = attributes.count(OtlpAttribute.REASONING_TOKENS);
        Long total = attributes.count(OtlpAttribute.TOTAL_TOKENS);
        if (input == null && output == null && cacheRead == null && cacheWrite == null && total == null) {
            return null;
        }
        long cached = (cacheRead == null ? 0 : cacheRead) + (cacheWrite == null ? 0 : cacheWrite);
        if (input != null && cached > 0 && cached <= input && TokenNormalizer.countsCacheApart(provider)) {
            input = input - cached;
        }
        return Usage.newBuilder().setInputTokens(input).setOutputTokens(output).setCacheReadTokens(cacheRead)
                .setCacheWriteTokens(cacheWrite).setReasoningTokens(reasoning).setTotalTokens(total).build();
    }

    private static Long durationMs(OtlpSpan entry) {
        Span span = entry.span();
        long start = span.getStartTimeUnixNano();
        long end = span.getEndTimeUnixNano();
        if (start == 0 || end == 0) {
            return null;
        }
        if (Long.compareUnsigned(end, start) < 0) {
            throw new InvalidInputException(OUT_OF_RANGE, entry.at() + " ends before it starts (endTimeUnixNano " + Long.toUnsignedString(end)
                    + " < startTimeUnixNano " + Long.toUnsignedString(start) + ")");
        }
        return (end - start + 500_000) / 1_000_000;
    }

    /** An id as lower-case hex; refused when absent, of the wrong length or all zeros (W3C Trace Context's invalid id). */
    static String id(ByteString id, int bytes, OtlpSpan entry, String name) {
        if (id.isEmpty()) {
            throw new InvalidInputException(MISSING_FIELD, entry.at() + " " + name
                    + " is missing: every span has a trace id and a span id");
        }
        if (id.size() != bytes) {
            throw new InvalidInputException(WRONG_TYPE, entry.at() + " " + name + " is " + id.size() + " bytes: expected " + bytes);
        }
        byte[] raw = id.toByteArray();
        boolean zeros = true;
        for (byte b : raw) {
            zeros &= b == 0;
        }
        if (zeros) {
            throw new InvalidInputException(OUT_OF_RANGE, entry.at() + " " + name + " is all zeros: an invalid id (W3C Trace Context)");
        }
        return HEX.formatHex(raw);
    }

    /** The W3C {@code traceparent} of a mapped span (its ids already checked): version 00 and its trace flags. */
    static String traceparent(Span span) {
        return "00-" + HEX.formatHex(span.getTraceId().toByteArray()) + "-" + HEX.formatHex(span.getSpanId().toByteArray())
                + "-" + HEX.toHexDigits((byte) (span.getFlags() & 0xFF));
    }
}
