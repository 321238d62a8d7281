package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.HeaderNames;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Spend by tenant and team, on a real broker: JSON results attributed by header or by field, through /analytics and /metrics. */
class TenantAnalyticsTest extends ServiceOnTestBroker {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static HttpResponse<String> get(AgentOutcomesService service, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Each group's running total by name, as /analytics answers for {@code window=total}. */
    private static Map<String, JsonNode> totals(AgentOutcomesService service, String by) throws Exception {
        HttpResponse<String> response = get(service, "/analytics?window=total&by=" + by);
        Map<String, JsonNode> groups = new HashMap<>();
        if (response.statusCode() == 200) {
            JSON.readTree(response.body()).get("series").forEach(s -> groups.put(s.get("name").asText(), s.at("/points/0")));
        }
        return groups;
    }

    private static long results(JsonNode total) {
        long sum = 0;
        for (JsonNode count : total.get("completions")) {
            sum += count.asLong();
        }
        return sum;
    }

    @Test
    void twoTenantsSpendIsSummedExactlyOnEverySurface() throws Exception {
        AppConfig config = config("tenants", Map.of("analytics.flush.interval.ms", "200",
                "analytics.dimensions", "agent,model,provider,tenant,team", ConfigLoader.TOPIC_PARTITIONS, "2"));
        String topic = config.topicPrefix() + "agent-results-json";
        Instant at = Instant.parse("2026-03-01T10:00:00Z");
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                for (int i = 0; i < 20; i++) {
                    // even: the tenant from the header; odd: from the result's field, which the header cannot override
                    String tenantField = i % 2 == 0 ? "" : ", \"tenantId\": \"globex\"";
                    String value = "{\"status\": \"success\", \"data\": {}, \"taskId\": \"t-" + i + "\"" + tenantField
                            + ", \"execution\": {\"model\": \"gpt-4o-mini\", \"provider\": \"openai\", \"cost\": "
                            + new BigDecimal(i + 1).movePointLeft(3).toPlainString() + "}}";
                    producer.send(json(topic, "t-" + i, at.plusSeconds(i).toEpochMilli(), value,
                            HeaderNames.AGENT_ID, "summarizer", HeaderNames.TENANT_ID, "acme", HeaderNames.TEAM, "search")).get();
                }
            }
            AtomicReference<Map<String, JsonNode>> byTenant = new AtomicReference<>(Map.of());
            waitForCondition(() -> {
                byTenant.set(totals(service, "tenant"));
                return byTenant.get().values().stream().mapToLong(TenantAnalyticsTest::results).sum() == 20;
            }, 60_000, () -> "totals by tenant: " + byTenant.get());

            assertThat(byTenant.get()).containsOnlyKeys("acme", "globex");
            assertThat(new BigDecimal(byTenant.get().get("acme").get("costTotal").asText())).isEqualByComparingTo("0.100");
            assertThat(new BigDecimal(byTenant.get().get("globex").get("costTotal").asText())).isEqualByComparingTo("0.110");
            assertThat(results(byTenant.get().get("acme"))).isEqualTo(10);
            Map<String, JsonNode> byTeam = totals(service, "team");
            assertThat(byTeam).containsOnlyKeys("search");
            assertThat(new BigDecimal(byTeam.get("search").get("costTotal").asText())).isEqualByComparingTo("0.210");
            assertThat(get(service, "/analytics?by=user").statusCode()).isEqualTo(400);

            assertThat(scrapeSum(service, "agent_outcomes_cost_usd_total", "tenant=\"acme\"")).isCloseTo(0.1, offset(1e-12));
            assertThat(scrapeSum(service, "agent_outcomes_cost_usd_total", "tenant=\"globex\"")).isCloseTo(0.11, offset(1e-12));
            assertThat(scrapeSum(service, "agent_outcomes_results_total", "team=\"search\"")).isEqualTo(20.0);
            assertThat(get(service, "/").body()).contains("Cost per tenant").contains("<td>acme</td>").contains("<td>globex</td>");
        }
    }
}
