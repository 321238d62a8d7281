package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.ingest.OtelSdkSpans.Encoding;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ingest stage's OTLP input with spans made by the OpenTelemetry Java SDK and serialized by its OTLP marshalers,
 * in both of the Collector's encodings: exact canonical results per span.
 */
class OtlpSpansTest {
    private static final String AGENT = "billing-bot";

    private final StageDriver stage = StageDriver.stage((builder, topics) ->
            IngestTopology.buildOtlp(builder, topics, InputLimits.defaults()));
    private final TestInputTopic<byte[], byte[]> otlpSpans = stage.bytesInput(stage.topics.otlpSpans.name());
    private final TestOutputTopic<String, AgentResult> agentResults = stage.output(stage.topics.agentResults);
    private final TestOutputTopic<byte[], byte[]> rejected = stage.bytesOutput(stage.topics.rejectedInput.name());
    private final OtelSdkSpans sdk = new OtelSdkSpans(AGENT);

    @AfterEach
    void close() {
        sdk.close();
        stage.close();
    }

    private void send(byte[] request) {
        otlpSpans.pipeInput(StageDriver.bytesRecord(null, request, new RecordHeaders(), T0));
    }

    private static Instant at(long millis) {
        return T0.plusMillis(millis);
    }

    private double skipped() {
        return stage.metricTotal("stream-agent-outcomes-ingest-metrics", OtlpSpansProcessor.SKIPPED + "-total",
                "agent-outcomes-ingest-id", stage.topics.otlpSpans.name());
    }

    private static String header(Headers headers, String name) {
        return headers.lastHeader(name) == null ? null : new String(headers.lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static String id(Span span) {
        return span.getSpanContext().getTraceId() + "/" + span.getSpanContext().getSpanId();
    }

    private static String traceparent(Span span) {
        return "00-" + span.getSpanContext().getTraceId() + "-" + span.getSpanContext().getSpanId() + "-"
                + span.getSpanContext().getTraceFlags().asHex();
    }

    private static AgentResult.Builder result(Span span, String task, long startMillis, long durationMs) {
        return AgentResult.newBuilder().setResultId(id(span)).setAgentId(AGENT).setTaskId(task).setAttempt(0)
                .setDialect(Dialect.OTLP).setRecordTimestamp(T0.toEpochMilli())
                .setExecution(ExecutionMetadata.newBuilder().setTimestamp(T0.toEpochMilli() + startMillis)
                        .setDurationMs(durationMs).build())
                .setOutcome(Success.newBuilder().build());
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void anInProcessAgentInvocationIsOneResultPerModelCallToolAndAgentWithTokensOnlyOnTheModelCalls(Encoding encoding) {
        Span agent = sdk.span("invoke_agent billing-bot", SpanKind.INTERNAL, null, at(0), null, Map.of(
                "gen_ai.operation.name", "invoke_agent", "gen_ai.agent.id", AGENT, "gen_ai.provider.name", "openai",
                "gen_ai.request.model", "gpt-4o", "gen_ai.usage.input_tokens", 1000L, "gen_ai.usage.output_tokens", 200L));
        Span chat1 = sdk.span("chat gpt-4o", SpanKind.CLIENT, agent, at(100), at(1100), Map.of(
                "gen_ai.operation.name", "chat", "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o",
                "gen_ai.response.model", "gpt-4o-2024-08-06", "gen_ai.response.id", "chatcmpl-1",
                "gen_ai.usage.input_tokens", 600L, "gen_ai.usage.output_tokens", 100L,
                "gen_ai.usage.cache_read.input_tokens", 100L));
        Span tool = sdk.span("execute_tool lookup_invoice", SpanKind.INTERNAL, agent, at(1200), null, Map.of(
                "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "lookup_invoice"));
        sdk.span("GET /invoices/7", SpanKind.CLIENT, tool, at(1250), at(1450), Map.of("http.request.method", "GET",
                "http.response.status_code", 200L));
        tool.end(T0.plusMillis(1500).toEpochMilli(), java.util.concurrent.TimeUnit.MILLISECONDS);
        Span chat2 = sdk.span("chat gpt-4o", SpanKind.CLIENT, agent, at(1600), at(2600), Map.of(
                "gen_ai.operation.name", "chat", "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o",
                "gen_ai.usage.input_tokens", 400L, "gen_ai.usage.output_tokens", 100L));
        agent.end(T0.plusMillis(3000).toEpochMilli(), java.util.concurrent.TimeUnit.MILLISECONDS);

        send(sdk.request(encoding));

        String task = id(agent);
        List<TestRecord<String, AgentResult>> results = agentResults.readRecordsToList();
        assertThat(results).extracting(TestRecord::getKey).containsExactly(task, task, task, task);
        assertThat(results).extracting(TestRecord::getValue).containsExactly(
                result(chat1, task, 100, 1000).setExecution(ExecutionMetadata.newBuilder().setProvider("openai")
                        .setModel("gpt-4o-2024-08-06").setRequestId("chatcmpl-1").setTimestamp(T0.toEpochMilli() + 100)
                        .setDurationMs(1000L).setUsage(Usage.newBuilder().setInputTokens(600L).setOutputTokens(100L)
                                .setCacheReadTokens(100L).build()).build()).build(),
                result(tool, task, 1200, 300).build(),
                result(chat2, task, 1600, 1000).setExecution(ExecutionMetadata.newBuilder().setProvider("openai")
                        .setModel("gpt-4o").setTimestamp(T0.toEpochMilli() + 1600).setDurationMs(1000L)
                        .setUsage(Usage.newBuilder().setInputTokens(400L).setOutputTokens(100L).build()).build()).build(),
                // the agent's own usage sums its model calls, which are spans of their own: not counted again
                result(agent, task, 0, 3000).setExecution(ExecutionMetadata.newBuilder().setProvider("openai")
                        .setModel("gpt-4o").setTimestamp(T0.toEpochMilli()).setDurationMs(3000L).build()).build());
        // the SDK's own trace flags: sampled, and W3C Trace Context level 2's random trace id (03)
        assertThat(results).extracting(r -> header(r.getHeaders(), CloudEvents.TRACEPARENT)).containsExactly(
                traceparent(chat1), traceparent(tool), traceparent(chat2), traceparent(agent));
        assertThat(traceparent(agent)).endsWith("-03");
        assertThat(skipped()).isEqualTo(1.0);
        assertThat(rejected.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aFailedCallIsAFailureWithTheConventionsErrorTypeAndStatusItsMessageScrubbed(Encoding encoding) {
        Span limited = sdk.span("chat gpt-4o", SpanKind.CLIENT, null, at(0), null, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o", "error.type", "openai.RateLimitError",
                "http.response.status_code", 429L));
        OtelSdkSpans.fail(limited, "Rate limit reached for gpt-4o; request had Authorization: Bearer sk-proj-abcdefghijklmnop1234",
                at(250));
        Span timedOut = sdk.span("chat gpt-4o", SpanKind.CLIENT, null, at(0), null, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o", "error.type", "httpx.ReadTimeout"));
        OtelSdkSpans.fail(timedOut, "", at(30_000));
        Span unavailable = sdk.span("execute_tool lookup_invoice", SpanKind.INTERNAL, null, at(0), null, Map.of(
                "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "lookup_invoice", "error.type", "503"));
        OtelSdkSpans.fail(unavailable, "", at(10));

        send(sdk.request(encoding));

        assertThat(agentResults.readValuesToList()).extracting(r -> ((Failure) r.getOutcome()).getError()).containsExactly(
                ErrorInfo.newBuilder().setCode("openai.RateLimitError").setType("openai.RateLimitError").setStatusCode(429)
                        .setMessage("Rate limit reached for gpt-4o; request had Authorization: [redacted]").build(),
                ErrorInfo.newBuilder().setCode("httpx.ReadTimeout").setType("httpx.ReadTimeout")
                        .setCategory(ErrorCategory.TIMEOUT).build(),
                ErrorInfo.newBuilder().setCode("503").setType("503").setStatusCode(503).setToolName("lookup_invoice").build());
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void olderAttributeNamesAreReadAndAnthropicsCachedTokensAreTakenOutOfTheConventionsInputCount(Encoding encoding) {
        Span chat = sdk.span("chat claude", SpanKind.CLIENT, null, at(0), at(800), Map.of("gen_ai.operation.name", "chat",
                "gen_ai.system", "anthropic", "gen_ai.request.model", "claude-sonnet-4-5", "gen_ai.agent.name", "reviewer",
                "gen_ai.usage.prompt_tokens", 1200L, "gen_ai.usage.completion_tokens", 50L,
                "gen_ai.usage.cache_creation.input_tokens", 200L, "gen_ai.usage.cache_read_input_tokens", 300L));

        send(sdk.request(encoding));

        assertThat(agentResults.readValuesToList()).containsExactly(result(chat, id(chat), 0, 800).setAgentId("reviewer")
                .setExecution(ExecutionMetadata.newBuilder().setProvider("anthropic").setModel("claude-sonnet-4-5")
                        .setTimestamp(T0.toEpochMilli()).setDurationMs(800L).setUsage(Usage.newBuilder().setInputTokens(700L)
                                .setOutputTokens(50L).setCacheReadTokens(300L).setCacheWriteTokens(200L).build()).build())
                .build());
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aRemoteAgentsInvocationCountsItsOwnUsageAndTheTaskAndAttemptAttributesWin(Encoding encoding) {
        Span remote = sdk.span("invoke_agent travel", SpanKind.CLIENT, null, at(0), at(5000), Map.of(
                "gen_ai.operation.name", "invoke_agent", "gen_ai.agent.id", "asst_travel", "gen_ai.provider.name", "openai",
                "gen_ai.request.model", "gpt-4o", "gen_ai.usage.input_tokens", 900L, "gen_ai.usage.output_tokens", 90L,
                "agent_outcomes.task.id", "trip-42", "agent_outcomes.attempt", 2L));

        send(sdk.request(encoding));

        assertThat(agentResults.readValuesToList()).containsExactly(result(remote, "trip-42", 0, 5000).setAgentId("asst_travel")
                .setAttempt(2).setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                        .setTimestamp(T0.toEpochMilli()).setDurationMs(5000L).setUsage(Usage.newBuilder()
                                .setInputTokens(900L).setOutputTokens(90L).build()).build()).build());
    }
}
