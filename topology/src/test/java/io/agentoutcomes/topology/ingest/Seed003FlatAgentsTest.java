package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.Normalize.RECORD_TIME;
import static io.agentoutcomes.topology.ingest.Normalize.agentResult;
import static io.agentoutcomes.topology.ingest.Normalize.headers;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed 003's examples (error, rate_limit, provider_data, usage, cost) in flatagents results, and what they become. */
class Seed003FlatAgentsTest {
    static final String ERROR = "{\"code\":\"rate_limit\",\"type\":\"RateLimitError\",\"message\":\"Too many requests\","
            + "\"status_code\":429,\"retryable\":true}";
    static final String RATE_LIMIT = "{\"limited\":true,\"retry_after\":60,\"windows\":["
            + "{\"name\":\"requests_per_minute\",\"resource\":\"requests\",\"remaining\":0,\"limit\":60,\"resets_in\":45,"
            + "\"reset_at\":1234567890.0},"
            + "{\"name\":\"tokens_per_day\",\"resource\":\"tokens\",\"remaining\":500000,\"limit\":1000000,\"resets_in\":43200}]}";
    static final String PROVIDER_DATA = "{\"provider\":\"cerebras\",\"model\":\"llama-4-scout-17b\",\"request_id\":\"req_abc123\","
            + "\"raw_headers\":{\"x-ratelimit-remaining-requests-minute\":\"10\",\"x-ratelimit-remaining-tokens-day\":\"500000\"}}";
    static final String USAGE = "{\"input_tokens\":100,\"output_tokens\":50,\"total_tokens\":150,\"cache_read_tokens\":10,"
            + "\"cache_write_tokens\":5,\"api_calls\":1}";
    static final String COST = "{\"input\":0.001,\"output\":0.002,\"cache_read\":0.0001,\"cache_write\":0.0002,\"total\":0.0033}";

    private static AgentResult publish(String json) {
        return agentResult("task-7", json, headers("agent-id", "flat-agent"));
    }

    private static AgentResult.Builder expected() {
        return AgentResult.newBuilder().setResultId("agent-results-json/0/0").setAgentId("flat-agent").setTaskId("task-7")
                .setAttempt(0).setDialect(Dialect.FLATAGENTS).setRecordTimestamp(RECORD_TIME.toEpochMilli());
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount).setScale(12);
    }

    static ProviderData providerData() {
        return ProviderData.newBuilder().setProvider("cerebras").setModel("llama-4-scout-17b").setRequestId("req_abc123")
                .setRawHeaders(Map.of("x-ratelimit-remaining-requests-minute", "10",
                        "x-ratelimit-remaining-tokens-day", "500000")).build();
    }

    @Test
    void seed002TheToolNameOfAToolErrorIsKeptInTheErrorContext() {
        AgentResult snakeCase = publish("{\"error\":{\"code\":\"tool_error\",\"message\":\"search failed\","
                + "\"tool_name\":\"search\"}}");
        AgentResult camelCase = publish("{\"error\":{\"code\":\"tool_error\",\"toolName\":\"fetch\"}}");

        assertThat(snakeCase).isEqualTo(expected().setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder()
                .setCode("tool_error").setMessage("search failed").setToolName("search").build()).build()).build());
        assertThat(((Failure) camelCase.getOutcome()).getError().getToolName()).isEqualTo("fetch");
    }

    @Test
    void seed002TheErrorsCategoryIsReadAsItsProducerNamesIt() {
        AgentResult named = publish("{\"error\":{\"code\":\"ENOENT\",\"category\":\"Tool\"}}");
        AgentResult other = publish("{\"error\":{\"code\":\"ENOENT\",\"category\":\"network\"}}");

        assertThat(((Failure) named.getOutcome()).getError().getCategory()).isEqualTo(ErrorCategory.TOOL);
        assertThat(((Failure) other.getOutcome()).getError().getCategory()).isNull();
    }

    @Test
    void seed003OutputAndContentSentAlongsideAnErrorAreKept() {
        AgentResult result = publish("{\"output\":{\"partial\":[1,2]},\"content\":\"I found two of three\","
                + "\"finish_reason\":\"length\",\"error\":{\"code\":\"context_length\"}}");

        assertThat(result).isEqualTo(expected().setOutcome(Failure.newBuilder()
                .setError(ErrorInfo.newBuilder().setCode("context_length").build()).setFinishReason("length")
                .setData("{\"partial\":[1,2]}").setContent("I found two of three").build()).build());
    }

    @Test
    void rateLimitedFailureWithEverySeedExample() {
        AgentResult result = publish("{\"output\":null,\"content\":null,\"usage\":" + USAGE + ",\"cost\":" + COST
                + ",\"metadata\":{\"state\":\"analyze\"},\"finish_reason\":\"error\",\"error\":" + ERROR
                + ",\"rate_limit\":" + RATE_LIMIT + ",\"provider_data\":" + PROVIDER_DATA + "}");

        assertThat(result).isEqualTo(expected()
                .setMetadata("{\"state\":\"analyze\"}")
                .setExecution(ExecutionMetadata.newBuilder().setProvider("cerebras").setModel("llama-4-scout-17b")
                        .setRequestId("req_abc123")
                        .setUsage(Usage.newBuilder().setInputTokens(100L).setOutputTokens(50L).setTotalTokens(150L)
                                .setCacheReadTokens(10L).setCacheWriteTokens(5L).setApiCalls(1L).build())
                        .setCost(Cost.newBuilder().setInput(Money.toBytes(usd("0.001"))).setOutput(Money.toBytes(usd("0.002")))
                                .setCacheRead(Money.toBytes(usd("0.0001"))).setCacheWrite(Money.toBytes(usd("0.0002"))).setTotal(Money.toBytes(usd("0.0033")))
                                .setSource(CostSource.REPORTED).build())
                        .build())
                .setRateLimit(RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(60_000L).setWindows(List.of(
                        RateLimitWindow.newBuilder().setName("requests_per_minute").setResource("requests")
                                .setRemaining(0L).setLimit(60L).setResetsInMs(45_000L).setResetAtMs(1_234_567_890_000L).build(),
                        RateLimitWindow.newBuilder().setName("tokens_per_day").setResource("tokens")
                                .setRemaining(500_000L).setLimit(1_000_000L).setResetsInMs(43_200_000L).build())).build())
                .setProviderData(providerData())
                .setOutcome(Failure.newBuilder().setFinishReason("error").setError(ErrorInfo.newBuilder()
                        .setCode("rate_limit").setType("RateLimitError").setMessage("Too many requests")
                        .setStatusCode(429).setRetryable(true).build()).build())
                .build());
    }

    @Test
    void successHasNoErrorAndCostAsAFloat() {
        AgentResult result = publish("{\"output\":{\"summary\":\"ok\"},\"content\":\"{\\\"summary\\\":\\\"ok\\\"}\","
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3},\"cost\":0.0000001,\"finish_reason\":\"stop\","
                + "\"error\":null}");

        assertThat(result).isEqualTo(expected()
                .setExecution(ExecutionMetadata.newBuilder()
                        .setUsage(Usage.newBuilder().setInputTokens(12L).setOutputTokens(3L).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(usd("0.0000001"))).setSource(CostSource.REPORTED).build())
                        .build())
                .setOutcome(Success.newBuilder().setData("{\"summary\":\"ok\"}").setContent("{\"summary\":\"ok\"}")
                        .setFinishReason("stop").build())
                .build());
    }

    @Test
    void costBreakdownWithoutATotalGetsTheSumOfItsParts() {
        AgentResult result = publish("{\"content\":\"hi\",\"cost\":{\"input\":0.001,\"output\":0.002}}");

        assertThat(result.getExecution().getCost()).isEqualTo(Cost.newBuilder().setInput(Money.toBytes(usd("0.001")))
                .setOutput(Money.toBytes(usd("0.002"))).setTotal(Money.toBytes(usd("0.003"))).setSource(CostSource.COMPUTED).build());
    }

    @Test
    void errorCodesWithoutADetailedObjectAreKept() {
        AgentResult result = publish("{\"error\":{\"code\":\"context_length\",\"message\":\"Input too long\","
                + "\"status_code\":400,\"retryable\":false}}");

        assertThat(result.getOutcome()).isEqualTo(Failure.newBuilder().setError(ErrorInfo.newBuilder()
                .setCode("context_length").setMessage("Input too long").setStatusCode(400).setRetryable(false).build())
                .build());
    }
}
