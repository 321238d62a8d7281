package io.agentoutcomes.app.http.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.http.query.AnalyticsQueries.Series;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /analytics}' bound: the most expensive groups, then the rest merged as {@code _other}, per window. */
class AnalyticsTopTest {
    @Test
    void groupsPastTheLimitAreMergedPerWindowIntoOtherAfterTheMostExpensive() {
        List<Series> all = new ArrayList<>();
        for (int agent = 0; agent < 5; agent++) {
            // agent-4 costs most; each agent has two hourly windows
            all.add(new Series("agent-" + agent, List.of(point("agent-" + agent, 0L, agent + 1, 1),
                    point("agent-" + agent, 3_600_000L, agent + 1, 2))));
        }

        List<Series> top = AnalyticsQueries.top(all, 2);

        assertThat(top).extracting(Series::name).containsExactly("agent-4", "agent-3", "_other");
        Series other = top.get(2);
        assertThat(other.points()).extracting(AgentMetrics::getWindowStart).containsExactly(0L, 3_600_000L);
        // agents 0, 1 and 2: cost 1 + 2 + 3 in each window, retries 1 + 1 + 1 and 2 + 2 + 2
        assertThat(other.points()).extracting(AgentMetrics::getCostTotal)
                .containsExactly(new BigDecimal("6.000000000000"), new BigDecimal("6.000000000000"));
        assertThat(other.points()).extracting(AgentMetrics::getRetries).containsExactly(3L, 6L);
    }

    @Test
    void groupsWithinTheLimitAreAnsweredAsTheyAre() {
        List<Series> all = List.of(new Series("a", List.of(point("a", 0L, 1, 1))), new Series("b", List.of(point("b", 0L, 2, 1))));

        assertThat(AnalyticsQueries.top(all, 2)).isSameAs(all);
    }

    private static AgentMetrics point(String agent, long windowStart, int cost, long retries) {
        AgentMetrics metrics = MetricsAggregator.empty(Dimensions.of(agent, "m", "p"));
        metrics.setWindowStart(windowStart);
        metrics.setCostTotal(new BigDecimal(cost).setScale(12));
        metrics.setRetries(retries);
        return metrics;
    }
}
