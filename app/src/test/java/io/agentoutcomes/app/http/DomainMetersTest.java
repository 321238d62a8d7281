package io.agentoutcomes.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.topology.analytics.MetricsAggregator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DomainMetersTest {

    private static AgentMetrics totals(String agent, String cost) {
        AgentMetrics metrics = MetricsAggregator.empty(new MetricsAggregator.Key(agent, "m", "p"));
        metrics.setCostTotal(new BigDecimal(cost).setScale(12));
        metrics.setRetries(1);
        return metrics;
    }

    @Test
    void labelSetsBeyondTheCapAreSummedUnderOther() {
        List<AgentMetrics> all = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            all.add(totals("agent-" + i, i + ".000001"));
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DomainMeters meters = new DomainMeters(registry, () -> all, 3);

        meters.refresh();

        assertThat(registry.find("agent_outcomes_retries").gauges()).extracting(g -> g.getId().getTag("agent"))
                .containsExactlyInAnyOrder("agent-5", "agent-4", DomainMeters.OTHER);
        assertThat(registry.find("agent_outcomes_retries").tag("agent", DomainMeters.OTHER).gauge().value()).isEqualTo(3.0);
        assertThat(registry.find("agent_outcomes_cost_usd").tag("agent", DomainMeters.OTHER).tag("part", "total").gauge()
                .value()).isEqualTo(6.000003);
    }

    @Test
    void seed000TheConfidenceDistributionPerAgentIsAMeter() {
        AgentMetrics photo = totals("photo-analyzer", "0.1");
        photo.setConfidenceBuckets(java.util.Map.of("0.6-0.7", 2L, "0.9-1.0", 5L));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DomainMeters meters = new DomainMeters(registry, () -> List.of(photo), 10);

        meters.refresh();

        assertThat(registry.find("agent_outcomes_confidence").tag("agent", "photo-analyzer").tag("bucket", "0.6-0.7")
                .gauge().value()).isEqualTo(2.0);
        assertThat(registry.find("agent_outcomes_confidence").tag("bucket", "0.9-1.0").gauge().value()).isEqualTo(5.0);
    }
}
