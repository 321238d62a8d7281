package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.budget.BudgetPeriods;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * Budgets under SIGKILL: a budget of $1 a day per tenant (two tenants, named by the {@code tenant-id} header of one
 * agent's results), each tenant spending $1.50 on each of two days (results of $0.05, event times
 * yesterday and today), the service killed while each day's budgets are crossing (its 50 % alerts out, its 100 % not
 * yet reached).
 * Then {@code budget-alerts} read with {@code read_committed}: exactly three alerts (50, 80, 100 %) per tenant and day,
 * none twice, none lost, each with the spend its threshold was crossed at; and each day's spend exactly $1.50 (no cost
 * counted twice).
 */
class BudgetCrashIT {
    private static final List<String> TENANTS = List.of("tenant-a", "tenant-b");
    /** Results per agent and day: $0.05 each, $1.50 in all, crossing 50 % at the 10th, 80 % at the 16th, 100 % at the 20th. */
    private static final int PER_DAY = 30;
    private static final int BATCH = 6;

    @Test
    void killedWhileBudgetsCrossEachThresholdIsAlertedExactlyOncePerTenantAndPeriod() throws Exception {
        Scenarios.run("BudgetCrashIT: SIGKILL while budgets cross their thresholds", "budgets",
                (dir, random, figures, softly) -> {
            Map<String, String> settings = new LinkedHashMap<>(Scenarios.serviceSettings(1));
            settings.put("budget.daily.dimension", "tenant");
            settings.put("budget.daily.limit.usd", "1");
            settings.put("budget.daily.period", "day");
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", settings)) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), List.of(TopicNames.BUDGET_ALERTS));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, app.registryUrl()), false).serializer();
                    // event times decide the period: yesterday's and today's, from UTC midnight (a future time would be refused)
                    long today = BudgetPeriods.start(BudgetPeriod.DAY, System.currentTimeMillis());
                    long yesterday = BudgetPeriods.previous(BudgetPeriod.DAY, today);
                    List<Duration> downtimes = new ArrayList<>();
                    for (long day : List.of(yesterday, today)) {
                        for (int from = 0; from < PER_DAY; from += BATCH) {
                            List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
                            for (int i = from; i < from + BATCH; i++) {
                                for (String tenant : TENANTS) {
                                    batch.add(record(avro, tenant, day, i));
                                }
                            }
                            producer.send(batch);
                            producer.flush();
                            // killed once per day, while its budgets are crossing: 18 results of each tenant sent (past 80 %,
                            // not yet 100 %), once the day's first alerts are out, a random moment later
                            if (from == 2 * BATCH) {
                                int before = downtimes.size() * 6 + 2;
                                watcher.await(seen -> seen.size() >= before, Duration.ofSeconds(20), Duration.ZERO);
                                Thread.sleep(random.nextInt(500));
                                figures.put("alerts read before SIGKILL " + (downtimes.size() + 1),
                                        watcher.records(TopicNames.BUDGET_ALERTS).size());
                                downtimes.add(Scenarios.killAndRestart(app, dir, random, figures, softly, downtimes.size() + 1));
                            } else {
                                Thread.sleep(300);
                            }
                        }
                    }
                    int expected = TENANTS.size() * 2 * 3;
                    boolean all = watcher.await(seen -> seen.size() >= expected, Duration.ofSeconds(120), Duration.ofSeconds(8));
                    List<BudgetAlert> alerts = checks.values(TopicNames.BUDGET_ALERTS, BudgetAlert.class);
                    figures.put("alerts on budget-alerts", alerts.size());
                    figures.put("downtime", downtimes.stream().map(d -> d.toMillis() + " ms").collect(Collectors.joining(", ")));
                    softly.assertThat(all).as("every alert within 120 s").isTrue();
                    softly.assertThat(alerts).as("three alerts per tenant and day, each once").hasSize(expected);
                    Map<String, List<String>> crossings = new TreeMap<>();
                    for (BudgetAlert alert : alerts) {
                        crossings.computeIfAbsent(alert.getValue() + " " + (alert.getPeriodStart() == today ? "today" : "yesterday"),
                                k -> new ArrayList<>()).add(alert.getThresholdPercent() + "% at "
                                + Money.toDecimal(alert.getSpend()).stripTrailingZeros().toPlainString());
                    }
                    figures.put("crossings", crossings);
                    for (String tenant : TENANTS) {
                        for (String day : List.of("yesterday", "today")) {
                            softly.assertThat(crossings.get(tenant + " " + day)).as("%s %s", tenant, day)
                                    .containsExactly("50% at 0.5", "80% at 0.8", "100% at 1");
                        }
                    }
                    JsonNode budgets = new ObjectMapper().readTree(app.get("/budgets").body()).get("budgets");
                    figures.put("budget values", budgets.size());
                    softly.assertThat(budgets).as("a spend per tenant").hasSize(TENANTS.size());
                    budgets.forEach(value -> softly.assertThat(value.get("periods")).as("%s: two days", value.get("value"))
                            .hasSize(2).allSatisfy(period -> softly.assertThat(period.get("charges").asLong())
                                    .as("%s: each result charged once", value.get("value")).isEqualTo(PER_DAY)));
                    softly.assertThat(app.healthState()).as("/health at the end").contains("RUNNING");
                }
            }
        });
    }

    /** The {@code i}-th result of a tenant on a day: $0.05, at the day's start plus {@code i} seconds. */
    private static ProducerRecord<byte[], byte[]> record(Serializer<AgentResult> avro, String tenant, long day, int i) {
        String task = tenant + "-" + day + "-" + i;
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("worker").setTaskId(task)
                .setDialect(Dialect.NATIVE).setOutcome(Success.newBuilder().build())
                .setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.05"))).build()).build()).build();
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TopicNames.AGENT_RESULTS, null, day + i * 1_000L,
                task.getBytes(StandardCharsets.UTF_8), avro.serialize(TopicNames.AGENT_RESULTS, result));
        // the tenant as producers name it: a header the pipeline attributes the result by
        record.headers().add(HeaderNames.TENANT_ID, tenant.getBytes(StandardCharsets.UTF_8));
        return record;
    }
}
