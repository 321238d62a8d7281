package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import org.junit.jupiter.api.Test;

/** The analytics' one sum of counts: exact below {@link Long#MAX_VALUE}, and there, not wrapped, past it. */
class CountsTest {
    private static final Dimensions KEY = Dimensions.of("agent-1", "gpt-4o-mini", "openai");

    @Test
    void aSumAddsExactlyBelowTheLargestLongAndStaysThereBeyondIt() {
        assertThat(Counts.plus(2, 3)).isEqualTo(5);
        assertThat(Counts.plus(Long.MAX_VALUE - 5, 5)).isEqualTo(Long.MAX_VALUE);
        assertThat(Counts.plus(Long.MAX_VALUE - 1, 5)).isEqualTo(Long.MAX_VALUE);
        assertThat(Counts.plus(Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void mergingTwoAggregatesNearTheLargestLongSaturatesTheirTokens() {
        AgentMetrics a = MetricsAggregator.empty(KEY);
        a.setTotalTokens(Long.MAX_VALUE - 10);
        AgentMetrics b = MetricsAggregator.empty(KEY);
        b.setTotalTokens(11);

        assertThat(MetricsAggregator.merge(a, b).getTotalTokens()).isEqualTo(Long.MAX_VALUE);
    }
}
