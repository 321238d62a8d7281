package io.agentoutcomes.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.topology.ingest.OtelSdkSpans.Encoding;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SDK-made spans through the whole pipeline on a test driver: a rate-limited model call classified as every dialect's
 * 429 is (a retry), a model call without cost priced from the shipped table, a refused tool call stopped.
 */
class OtlpPipelineTest {
    private static final Instant T0 = IngestDriver.RECORD_TIME;

    private final IngestDriver pipeline = new IngestDriver();
    private final OtelSdkSpans sdk = new OtelSdkSpans("support-bot");

    @AfterEach
    void close() {
        sdk.close();
        pipeline.close();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void aRateLimitedCallIsRetriedAPricedCallWithoutCostIsPricedAndAnAuthFailureIsStopped(Encoding encoding) {
        Span limited = sdk.span("chat gpt-4o-mini", SpanKind.CLIENT, null, T0, null, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o-mini", "agent_outcomes.task.id", "t-limited",
                "error.type", "openai.RateLimitError", "http.response.status_code", 429L));
        OtelSdkSpans.fail(limited, "Rate limit reached for gpt-4o-mini", T0.plusMillis(120));
        sdk.span("chat gpt-4o-mini", SpanKind.CLIENT, null, T0, T0.plusMillis(900), Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.response.model", "gpt-4o-mini-2024-07-18",
                "agent_outcomes.task.id", "t-priced", "gen_ai.usage.input_tokens", 10_000L, "gen_ai.usage.output_tokens", 1_000L,
                "gen_ai.usage.cache_read.input_tokens", 2_000L));
        Span denied = sdk.span("chat gpt-4o-mini", SpanKind.CLIENT, null, T0, null, Map.of("gen_ai.operation.name", "chat",
                "gen_ai.provider.name", "openai", "gen_ai.request.model", "gpt-4o-mini", "agent_outcomes.task.id", "t-denied",
                "error.type", "openai.AuthenticationError", "http.response.status_code", 401L));
        OtelSdkSpans.fail(denied, "Incorrect API key provided", T0.plusMillis(40));

        pipeline.otlp(sdk.request(encoding));

        List<ClassifiedOutcome> outcomes = pipeline.outcomes().stream().map(TestRecord::getValue).toList();
        assertThat(outcomes).extracting(ClassifiedOutcome::getTaskId, ClassifiedOutcome::getResultType,
                        ClassifiedOutcome::getErrorCode, o -> o.getDecision() == null ? null : o.getDecision().getHandling())
                .containsExactly(
                        tuple("t-limited", ResultType.RETRYABLE_FAILURE, "llm-rate-limit",
                                ErrorHandling.RETRY),
                        tuple("t-priced", ResultType.SUCCESS, null, null),
                        tuple("t-denied", ResultType.PERMANENT_FAILURE, "auth-failed",
                                ErrorHandling.STOP));
        // gpt-4o-mini: input 0.15, cached input 0.075, output 0.6 USD per million tokens; the conventions' 10 000 input
        // tokens include the 2 000 cached: 8 000 x 0.15 + 2 000 x 0.075 + 1 000 x 0.6 per million
        assertThat(outcomes.get(1).getAgentResult().getExecution().getCost()).isEqualTo(Cost.newBuilder()
                .setInput(Money.toBytes(usd("0.0012"))).setCacheRead(Money.toBytes(usd("0.00015")))
                .setOutput(Money.toBytes(usd("0.0006"))).setTotal(Money.toBytes(usd("0.00195")))
                .setSource(CostSource.COMPUTED).build());
    }

    private static BigDecimal usd(String amount) {
        return new BigDecimal(amount).setScale(Money.SCALE);
    }
}
