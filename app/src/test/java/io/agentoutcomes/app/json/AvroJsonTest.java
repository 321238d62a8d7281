package io.agentoutcomes.app.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AvroJsonTest {
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00.250Z");

    @Test
    void timesAreIsoStringsAndMoneyIsAnExactNumber() {
        AgentResult result = AgentResult.newBuilder().setResultId("r").setAgentId("a").setTaskId("t")
                .setRecordTimestamp(T0.toEpochMilli())
                .setExecution(ExecutionMetadata.newBuilder().setDurationMs(1500L)
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.000123456789")))
                                .setSource(CostSource.REPORTED).build()).build())
                .setOutcome(Success.newBuilder().build()).build();
        ClassifiedOutcome outcome = ClassifiedOutcome.newBuilder().setTaskId("t").setResultId("r").setAttempt(0)
                .setResultType(ResultType.SUCCESS).setReason("ok").setClassifiedAt(T0.toEpochMilli()).setAgentResult(result)
                .build();

        JsonNode json = AvroJson.toJson(outcome);

        assertThat(json.get("classifiedAt").asText()).isEqualTo("2026-03-01T12:00:00.250Z");
        assertThat(json.at("/agentResult/recordTimestamp").asText()).isEqualTo("2026-03-01T12:00:00.250Z");
        assertThat(json.at("/agentResult/execution/durationMs").asLong()).isEqualTo(1500L);
        assertThat(json.at("/agentResult/execution/cost/total").decimalValue()).isEqualByComparingTo("0.000123456789");
        assertThat(json.at("/agentResult/outcome/type").asText()).isEqualTo("Success");
    }

    @Test
    void analyticsPointsCarryTheirReasoningTokensBesideTheOutput() {
        AgentMetrics point = MetricsAggregator.empty(Dimensions.of("planner", "o3-mini", "openai"));
        point.setOutputTokens(1_200);
        point.setReasoningTokens(1_024);

        JsonNode json = AvroJson.toJson(point);

        assertThat(json.get("outputTokens").asLong()).isEqualTo(1_200L);
        assertThat(json.get("reasoningTokens").asLong()).isEqualTo(1_024L);
    }

    @Test
    void plainBytesAreTheBufferFromItsPositionToItsLimit() {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 9, 1, 2, 3, 9});
        buffer.position(2).limit(5);

        assertThat(AvroJson.toJson(buffer.slice()).asText()).isEqualTo("AQID");
        assertThat(AvroJson.toJson(buffer).asText()).isEqualTo("AQID");
    }

    @Test
    void moneyIsReadFromItsBufferPositionToItsLimit() {
        ByteBuffer amount = Money.toBytes(new BigDecimal("1.5"));
        ByteBuffer padded = ByteBuffer.allocate(amount.remaining() + 4);
        padded.put(new byte[] {9, 9}).put(amount.duplicate()).put(new byte[] {9, 9});
        padded.position(2).limit(2 + amount.remaining());
        Cost cost = Cost.newBuilder().setTotal(padded.slice()).setSource(CostSource.REPORTED).build();
        Cost offset = Cost.newBuilder().setTotal(padded).setSource(CostSource.REPORTED).build();

        assertThat(AvroJson.toJson(cost).get("total").decimalValue()).isEqualByComparingTo("1.5");
        assertThat(AvroJson.toJson(offset).get("total").decimalValue()).isEqualByComparingTo("1.5");
    }
}
