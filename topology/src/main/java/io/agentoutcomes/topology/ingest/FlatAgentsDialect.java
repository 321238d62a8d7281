package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The flatagents dialect's {@code AgentResult}: snake_case, {@code output}/{@code content} (kept on a failure too),
 * {@code usage} with cache
 * tokens, {@code cost} as a breakdown or a float, {@code finish_reason}, a structured {@code error} (none = success),
 * {@code rate_limit} with windows, and {@code provider_data} whose raw headers are redacted here.
 */
final class FlatAgentsDialect implements JsonDialect {
    private static final List<String> FIELDS = List.of("output", "content", "usage", "cost", "error", "finish_reason",
            "rate_limit", "provider_data");

    @Override
    public Dialect id() {
        return Dialect.FLATAGENTS;
    }

    @Override
    public String shape() {
        return "a flatagents result (output, usage, cost, error, ...)";
    }

    /** No status, and any of its members (present, even as null). */
    @Override
    public boolean detect(JsonFields root) {
        return JsonDialect.status(root) == null && FIELDS.stream().anyMatch(root.node()::has);
    }

    /** Provider reset times in the result's headers become waits from the record's time. */
    @Override
    public AgentResult.Builder normalize(JsonFields root, RecordContext context) {
        Instant resultTime = context.timestamp() == null ? Instant.EPOCH : context.timestamp();
        String finishReason = root.text("finish_reason");
        JsonFields provider = root.object("provider_data");
        // Headers a provider repeats in its error body count too; those the agent passed on as received win.
        Map<String, String> rawHeaders = new LinkedHashMap<>(ProviderErrorBody.headers(errorBody(provider)));
        rawHeaders.putAll(provider == null ? Map.of() : provider.stringMap("raw_headers"));
        AgentResult.Builder canonical = AgentResult.newBuilder()
                .setMetadata(root.jsonText("metadata"))
                // Read from the headers as received, before redaction keeps only the ones Kafka may see.
                .setRateLimit(ProviderErrorBody.complete(ProviderErrorBody.named(ProviderRateLimitHeaders.complete(
                        rateLimit(root.object("rate_limit")), rawHeaders, provider == null ? null : provider.text("provider"),
                        resultTime), errorBody(provider)), errorBody(provider)))
                .setProviderData(providerData(provider));
        canonical.setExecution(execution(root, provider, canonical.getProviderData()));
        if (root.has("error")) {
            // What the model produced before it failed is kept, as the dialect's AgentResult carries it beside the error.
            return canonical.setOutcome(Failure.newBuilder().setError(error(root)).setFinishReason(finishReason)
                    .setData(root.jsonText("output")).setContent(root.text("content")).build());
        }
        return canonical.setOutcome(Success.newBuilder().setData(root.jsonText("output")).setContent(root.text("content"))
                .setFinishReason(finishReason).build());
    }

    /** The provider's HTTP error body as the agent passed it on, or null. */
    private static JsonNode errorBody(JsonFields provider) {
        return provider == null ? null : provider.node().get("error_body");
    }

    private static ErrorInfo error(JsonFields root) {
        JsonNode error = root.node().get("error");
        if (error.isTextual()) {
            return ErrorInfo.newBuilder().setCode(error.asText()).build();
        }
        JsonFields fields = root.object("error");
        String code = fields.text("code");
        if (code == null) {
            throw new InvalidInputException(MISSING_FIELD, fields.at("code") + " is required in an error");
        }
        return ErrorInfo.newBuilder()
                .setCode(code)
                .setType(fields.text("type"))
                .setMessage(fields.text("message"))
                .setStatusCode(fields.smallCount("status_code"))
                .setRetryable(fields.bool("retryable"))
                .setCategory(category(fields.text("category")))
                // An ErrorContext names the failed tool: snake case as this dialect spells fields, or camel case as agents' own.
                .setToolName(fields.text("tool_name") != null ? fields.text("tool_name") : fields.text("toolName"))
                .build();
    }

    /** Seed 002's category as a producer names it (tool, model, validation, rate_limit, timeout, unknown), any case; else null. */
    private static ErrorCategory category(String name) {
        if (name == null) {
            return null;
        }
        String upper = name.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(ErrorCategory.values()).filter(c -> c.name().equals(upper)).findFirst().orElse(null);
    }

    /** Usage and cost, with the provider's model and request id; null when there is none of it. */
    private static ExecutionMetadata execution(JsonFields root, JsonFields providerJson, ProviderData provider) {
        Usage usage = usage(root.object("usage"), providerJson);
        Cost cost = cost(root);
        if (usage == null && cost == null && provider == null) {
            return null;
        }
        return ExecutionMetadata.newBuilder()
                .setUsage(usage)
                .setCost(cost)
                .setProvider(provider == null ? null : provider.getProvider())
                .setModel(provider == null ? null : provider.getModel())
                .setRequestId(provider == null ? null : provider.getRequestId())
                .build();
    }

    /** Seed 003's usage, with the reasoning tokens the provider's own usage object reports ({@link ReasoningTokens}). */
    private static Usage usage(JsonFields usage, JsonFields provider) {
        if (usage == null) {
            return null;
        }
        return ReasoningTokens.complete(Usage.newBuilder()
                .setInputTokens(usage.count("input_tokens"))
                .setOutputTokens(usage.count("output_tokens"))
                .setTotalTokens(usage.count("total_tokens"))
                .setCacheReadTokens(usage.count("cache_read_tokens"))
                .setCacheWriteTokens(usage.count("cache_write_tokens"))
                .setApiCalls(usage.count("api_calls"))
                .build(), usage, provider);
    }

    /** {@code cost} as a float (the total) or a breakdown; a breakdown without a total gets the sum of its parts. */
    private static Cost cost(JsonFields root) {
        JsonNode cost = root.node().get("cost");
        if (cost == null || cost.isNull()) {
            return null;
        }
        if (cost.isNumber()) {
            return VatEnvelopeDialect.reportedTotal(root.money("cost"));
        }
        JsonFields parts = root.object("cost");
        BigDecimal input = parts.money("input");
        BigDecimal output = parts.money("output");
        BigDecimal cacheRead = parts.money("cache_read");
        BigDecimal cacheWrite = parts.money("cache_write");
        BigDecimal total = parts.money("total");
        CostSource source = CostSource.REPORTED;
        if (total == null) {
            total = Stream.of(input, output, cacheRead, cacheWrite).filter(p -> p != null)
                    .reduce(Money.ZERO, BigDecimal::add);
            source = CostSource.COMPUTED;
        }
        return Cost.newBuilder().setInput(Money.toBytes(input)).setOutput(Money.toBytes(output))
                .setCacheRead(Money.toBytes(cacheRead)).setCacheWrite(Money.toBytes(cacheWrite)).setTotal(Money.toBytes(total))
                .setSource(source).build();
    }

    private static RateLimitState rateLimit(JsonFields rateLimit) {
        if (rateLimit == null) {
            return null;
        }
        Boolean limited = rateLimit.bool("limited");
        return RateLimitState.newBuilder()
                .setLimited(limited != null && limited)
                .setRetryAfterMs(rateLimit.secondsAsMillis("retry_after"))
                .setWindows(rateLimit.objects("windows", window -> RateLimitWindow.newBuilder()
                        .setName(window.requiredText("name"))
                        .setResource(window.text("resource"))
                        .setRemaining(window.count("remaining"))
                        .setLimit(window.count("limit"))
                        .setResetsInMs(window.secondsAsMillis("resets_in"))
                        .setResetAtMs(window.secondsAsMillis("reset_at"))
                        .build()))
                .build();
    }

    private static ProviderData providerData(JsonFields provider) {
        if (provider == null) {
            return null;
        }
        return ProviderData.newBuilder()
                .setProvider(provider.text("provider"))
                .setModel(provider.text("model"))
                .setRequestId(provider.text("request_id"))
                .setRawHeaders(RawHeaderRedactor.redact(provider.stringMap("raw_headers")))
                .build();
    }
}
