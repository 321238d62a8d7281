package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.budget.BudgetPeriods;
import io.agentoutcomes.topology.budget.BudgetStores;
import io.agentoutcomes.topology.provider.ProviderGateStores;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 29 item 8: stores that rarely change restore right. Kafka Streams 4.3 keeps a store's changelog offset inside
 * the store (KIP-1035); a store written rarely ({@code provider-state}, {@code budget-spend}, {@code budget-alert-counts})
 * can find, after a SIGKILL, that the broker has compacted its changelog past what it last wrote. The scenario: at the
 * service's defaults, a circuit opened and budgets past their thresholds; the three changelogs then set to be compacted
 * within seconds (a topic setting, through the admin client: the service itself runs at its defaults), written once
 * more, and compacted (the premise, checked: records the stores were written with before are gone from the
 * changelog); then, the stores quiet, a SIGKILL and a restart. Then the circuit is the one it was (opened once; open,
 * or half-open once its 30 s ran out, as soon as the service was back if they ran out while it was down; then closed by
 * successes: each change on {@code provider-health} once) and the budgets exact ({@code budget-alerts} read_committed:
 * 50, 80 and 100 % once per tenant and day, at the spend each was crossed at; {@code /budgets}: each day's 30 charges,
 * $1.50). On the code before issue 29 it passes too: after a SIGKILL, exactly-once Kafka Streams finds the stores
 * without committed offsets and restores them in full from the changelog's start, whatever was compacted.
 */
class CompactedChangelogCrashIT {
    private static final List<String> TENANTS = List.of("tenant-a", "tenant-b");
    private static final List<String> STORES = List.of(ProviderGateStores.STATE_STORE, BudgetStores.SPEND_STORE,
            BudgetStores.ALERT_COUNTS_STORE);
    /** Results per tenant and day: $0.05 each, $1.50 in all, crossing 50 % at the 10th, 80 % at the 16th, 100 % at the 20th. */
    private static final int PER_DAY = 30;
    private static final int FLAKY = 40;

    @Test
    void circuitsAndBudgetsAreExactAfterASigkillOnChangelogsCompactedPastTheStores() throws Exception {
        Scenarios.run("CompactedChangelogCrashIT: SIGKILL after the rarely written stores' changelogs were compacted",
                "compacted-changelogs", (dir, random, figures, softly) -> {
            Map<String, String> settings = new LinkedHashMap<>(Scenarios.serviceSettings(1));
            settings.put("budget.daily.dimension", "tenant");
            settings.put("budget.daily.limit.usd", "1");
            settings.put("budget.daily.period", "day");
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", settings)) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(),
                        List.of(TopicNames.BUDGET_ALERTS, TopicNames.PROVIDER_HEALTH));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, app.registryUrl()), false).serializer();
                    long today = BudgetPeriods.start(BudgetPeriod.DAY, System.currentTimeMillis());
                    long yesterday = BudgetPeriods.previous(BudgetPeriod.DAY, today);

                    // the stores written: yesterday's budgets crossed to 100 %, today's past 50 %, a circuit opened
                    List<ProducerRecord<byte[], byte[]>> first = new ArrayList<>(charges(avro, yesterday, 0, PER_DAY));
                    first.addAll(charges(avro, today, 0, 12));
                    for (int i = 0; i < FLAKY; i++) {
                        first.add(failure(avro, "flaky-" + i));
                    }
                    producer.send(first);
                    producer.flush();
                    boolean written = watcher.await(seen -> alerts(checks).size() >= 8 && states(checks).contains(CircuitState.OPEN),
                            Duration.ofSeconds(60), Duration.ofSeconds(1));
                    softly.assertThat(written).as("8 alerts and the circuit open before the changelogs are compacted").isTrue();

                    // the changelogs compacted: segments of 1 s, cleaned at 1 % dirty; the next write rolls a segment
                    List<String> changelogs = STORES.stream().map(store -> Changelogs.of("agent-outcomes", store)).toList();
                    Map<String, Set<String>> before = new TreeMap<>();
                    for (String changelog : changelogs) {
                        before.put(changelog, Changelogs.offsets(kafka.bootstrapServers(), changelog));
                    }
                    Changelogs.compactEagerly(kafka.bootstrapServers(), changelogs);
                    Thread.sleep(1_500);
                    List<ProducerRecord<byte[], byte[]>> second = new ArrayList<>(charges(avro, today, 12, 16));
                    for (int i = 0; i < 10; i++) {
                        second.add(failure(avro, "flaky-again-" + i));
                    }
                    producer.send(second);
                    producer.flush();
                    long compacting = System.currentTimeMillis();
                    Map<String, Integer> removed = new TreeMap<>();
                    while (System.currentTimeMillis() - compacting < 90_000) {
                        for (String changelog : changelogs) {
                            Set<String> now = Changelogs.offsets(kafka.bootstrapServers(), changelog);
                            removed.put(changelog, (int) before.get(changelog).stream().filter(offset -> !now.contains(offset)).count());
                        }
                        if (removed.values().stream().allMatch(count -> count > 0)) {
                            break;
                        }
                        Thread.sleep(2_000);
                    }
                    figures.put("changelog records before the compaction", before.entrySet().stream()
                            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size(), (a, b) -> a, TreeMap::new)));
                    figures.put("of those, compacted away before the kill", removed);
                    figures.put("compaction seen after", (System.currentTimeMillis() - compacting) + " ms");
                    // the scenario's premise: each store's changelog lost records the store had been written with
                    for (String changelog : changelogs) {
                        softly.assertThat(removed.getOrDefault(changelog, 0)).as("records compacted away from %s", changelog)
                                .isPositive();
                    }
                    watcher.await(seen -> alerts(checks).size() >= 10, Duration.ofSeconds(30), Duration.ofSeconds(1));

                    Duration down = Scenarios.killAndRestart(app, dir, random, figures, softly, 1);
                    long readyAt = System.currentTimeMillis();
                    figures.put("downtime", down.toMillis() + " ms");
                    // the circuit as it was: opened once, and open, or half-open when its 30 s ran out meanwhile
                    List<CircuitState> published = states(checks);
                    JsonNode flaky = scope(app, "flaky");
                    figures.put("/providers flaky after the restart", flaky == null ? "missing"
                            : flaky.get("circuit").asText() + ", opened " + flaky.get("opened").asLong());
                    figures.put("provider-health after the restart", published);
                    softly.assertThat(published).as("provider-health after the restart").isIn(
                            List.of(CircuitState.OPEN), List.of(CircuitState.OPEN, CircuitState.HALF_OPEN));
                    softly.assertThat(flaky).as("/providers: the flaky scope after the restart").isNotNull();
                    Thread.sleep(1_000); // the watcher reads a change a commit and a poll after the store has it
                    List<CircuitState> publishedAfter = states(checks);
                    if (flaky != null && !published.isEmpty()) {
                        // as published just before the query or just after it (the 30 s may run out in between)
                        softly.assertThat(flaky.get("circuit").asText()).as("/providers: flaky's circuit after the restart")
                                .isIn(published.get(published.size() - 1).toString(),
                                        publishedAfter.get(publishedAfter.size() - 1).toString());
                        softly.assertThat(flaky.get("opened").asLong()).as("/providers: flaky's circuit opened").isEqualTo(1L);
                    }

                    // the rest of today: 100 % crossed after the restart, from the restored spend
                    producer.send(charges(avro, today, 16, PER_DAY));
                    producer.flush();
                    // the circuit half-opens when its restored time comes, and successes close it
                    int successes = 0;
                    long recovering = System.currentTimeMillis();
                    while (!states(checks).contains(CircuitState.CLOSED) && System.currentTimeMillis() - recovering < 90_000) {
                        if (states(checks).contains(CircuitState.HALF_OPEN)) {
                            producer.send(List.of(result(avro, "flaky", "flaky-ok-" + successes++, Success.newBuilder().build())));
                        }
                        Thread.sleep(500);
                    }
                    int expected = TENANTS.size() * 2 * 3;
                    boolean all = watcher.await(seen -> alerts(checks).size() >= expected, Duration.ofSeconds(60), Duration.ofSeconds(5));
                    List<ProviderHealth> changes = checks.values(TopicNames.PROVIDER_HEALTH, ProviderHealth.class);
                    figures.put("circuit changes", changes.stream().map(c -> c.getState().toString()).collect(Collectors.joining(", ")));
                    softly.assertThat(changes).extracting(ProviderHealth::getState).as("each circuit change once")
                            .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
                    if (changes.size() == 3) {
                        // 30 s after it opened; when that fell while the service was down, as soon as it is back
                        long openAt = changes.get(0).getAt();
                        long halfOpenAt = changes.get(1).getAt();
                        figures.put("half-open after open", (halfOpenAt - openAt) + " ms (ready again "
                                + (readyAt - openAt) + " ms after open)");
                        softly.assertThat(halfOpenAt - openAt).as("open for 30 s, or until ready again after it")
                                .isBetween(30_000L, Math.max(32_000L, readyAt + 2_000 - openAt));
                    }
                    List<BudgetAlert> alerts = alerts(checks);
                    Map<String, List<String>> crossings = new TreeMap<>();
                    for (BudgetAlert alert : alerts) {
                        crossings.computeIfAbsent(alert.getValue() + " " + (alert.getPeriodStart() == today ? "today" : "yesterday"),
                                k -> new ArrayList<>()).add(alert.getThresholdPercent() + "% at "
                                + Money.toDecimal(alert.getSpend()).stripTrailingZeros().toPlainString());
                    }
                    figures.put("crossings", crossings);
                    softly.assertThat(all).as("every alert within 60 s").isTrue();
                    softly.assertThat(alerts).as("three alerts per tenant and day, each once").hasSize(expected);
                    for (String tenant : TENANTS) {
                        for (String day : List.of("yesterday", "today")) {
                            softly.assertThat(crossings.get(tenant + " " + day)).as("%s %s", tenant, day)
                                    .containsExactly("50% at 0.5", "80% at 0.8", "100% at 1");
                        }
                    }
                    JsonNode budgets = new ObjectMapper().readTree(app.get("/budgets").body()).get("budgets");
                    figures.put("/budgets at the end", budgets.toString());
                    softly.assertThat(budgets).as("a spend per tenant").hasSize(TENANTS.size());
                    budgets.forEach(value -> softly.assertThat(value.get("periods")).as("%s: two days", value.get("value"))
                            .hasSize(2).allSatisfy(period -> {
                                softly.assertThat(period.get("charges").asLong()).as("%s: charges", value.get("value")).isEqualTo(PER_DAY);
                                softly.assertThat(new BigDecimal(period.get("spend").asText())).as("%s: spend", value.get("value"))
                                        .isEqualByComparingTo("1.5");
                            }));
                    softly.assertThat(app.healthState()).as("/health at the end").contains("RUNNING");
                }
            }
        });
    }

    private static List<BudgetAlert> alerts(PipelineChecks checks) {
        return checks.values(TopicNames.BUDGET_ALERTS, BudgetAlert.class);
    }

    private static List<CircuitState> states(PipelineChecks checks) {
        return checks.values(TopicNames.PROVIDER_HEALTH, ProviderHealth.class).stream().map(ProviderHealth::getState).toList();
    }

    /** The provider gate's scope of {@code provider} on {@code /providers}, or null. */
    private static JsonNode scope(AppInstance app, String provider) throws Exception {
        JsonNode body = new ObjectMapper().readTree(app.get("/providers").body());
        for (JsonNode scope : body.has("providers") ? body.get("providers") : body) {
            if (provider.equals(scope.path("provider").asText())) {
                return scope;
            }
        }
        return null;
    }

    /** Each tenant's results {@code from} (inclusive) to {@code to} of a day: $0.05 each, at the day's start plus i seconds. */
    private static List<ProducerRecord<byte[], byte[]>> charges(Serializer<AgentResult> avro, long day, int from, int to) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            for (String tenant : TENANTS) {
                String task = tenant + "-" + day + "-" + i;
                AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("worker").setTaskId(task)
                        .setDialect(Dialect.NATIVE).setOutcome(Success.newBuilder().build())
                        .setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                                .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.05"))).build()).build()).build();
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(TopicNames.AGENT_RESULTS, null, day + i * 1_000L,
                        task.getBytes(StandardCharsets.UTF_8), avro.serialize(TopicNames.AGENT_RESULTS, result));
                record.headers().add(HeaderNames.TENANT_ID, tenant.getBytes(StandardCharsets.UTF_8));
                records.add(record);
            }
        }
        return records;
    }

    private static ProducerRecord<byte[], byte[]> failure(Serializer<AgentResult> avro, String task) {
        return result(avro, "flaky", task, Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-unavailable").build()).build());
    }

    private static ProducerRecord<byte[], byte[]> result(Serializer<AgentResult> avro, String provider, String task, Object outcome) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task)
                .setDialect(Dialect.VAT_ENVELOPE).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).build();
        return new ProducerRecord<>(TopicNames.AGENT_RESULTS, task.getBytes(StandardCharsets.UTF_8),
                avro.serialize(TopicNames.AGENT_RESULTS, result));
    }
}
