package io.agentoutcomes.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultBuilderTest {

    @Test
    void resultIdIsTaskAndAttemptSoARerunSentTwiceCountsOnce() {
        AgentResult result = ResultBuilder.of("planner", "task-1").attempt(2).success("{\"ok\":true}");
        assertThat(result.getResultId()).isEqualTo("task-1/2");
        assertThat(result.getAttempt()).isEqualTo(2);
        assertThat(((Success) result.getOutcome()).getData()).isEqualTo("{\"ok\":true}");
    }

    @Test
    void costBreakdownSumsExactlyToItsTotal() {
        AgentResult result = ResultBuilder.of("a", "t").model("anthropic", "claude-haiku").usage(1200, 300, 1000, 200)
                .cost(new BigDecimal("0.0012"), new BigDecimal("0.0015"), new BigDecimal("0.0001"), new BigDecimal("0.00025"))
                .success((String) null);
        assertThat(Money.toDecimal(result.getExecution().getCost().getTotal())).isEqualByComparingTo("0.00305");
        assertThat(Money.picos(result.getExecution().getCost().getTotal())).isEqualTo(3_050_000_000L);
        assertThat(result.getExecution().getCost().getSource()).isEqualTo(CostSource.REPORTED);
        assertThat(result.getExecution().getUsage().getTotalTokens()).isEqualTo(1500L);
        assertThat(result.getExecution().getUsage().getCacheReadTokens()).isEqualTo(1000L);
        assertThat(result.getExecution().getProvider()).isEqualTo("anthropic");
    }

    @Test
    void rateLimitedErrorCarriesTheProvidersWaitAndWindows() {
        AgentResult result = ResultBuilder.of("a", "t")
                .provider("openai", "gpt-4o-mini", "req-1", Map.of("retry-after", "2"))
                .rateLimit(true, Duration.ofSeconds(2), ResultBuilder.window("requests_per_minute", "requests", 0, 500,
                        Duration.ofSeconds(20)))
                .error("rate_limit", "429 Too Many Requests");
        assertThat(((Failure) result.getOutcome()).getError().getCode()).isEqualTo("rate_limit");
        assertThat(result.getRateLimit().getRetryAfterMs()).isEqualTo(2000L);
        assertThat(result.getRateLimit().getWindows().get(0).getResetsInMs()).isEqualTo(20_000L);
        assertThat(result.getProviderData().getRawHeaders()).containsEntry("retry-after", "2");
        assertThat(result.getExecution().getRequestId()).isEqualTo("req-1");
    }

    @Test
    void moneyBeyondTwelveDecimalsOrNegativeIsRefused() {
        assertThatThrownBy(() -> ResultBuilder.of("a", "t").cost(new BigDecimal("0.0000000000001")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("12 decimal places");
        assertThatThrownBy(() -> ResultBuilder.of("a", "t").cost(new BigDecimal("-1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }

    @Test
    void nodeEventsWithAndWithoutResultType() {
        NodeFinished compensatable = NodeEventBuilder.of("job-1", "charge").stepIndex(3).attempt(1)
                .compensatableFailure("card declined");
        assertThat(compensatable.getResultType()).isEqualTo(StepResultType.COMPENSATABLE_FAILURE);
        assertThat(compensatable.getReason()).isEqualTo("card declined");
        assertThat(NodeEventBuilder.of("job-1", "legacy").withoutResultType().getResultType()).isNull();
    }
}
