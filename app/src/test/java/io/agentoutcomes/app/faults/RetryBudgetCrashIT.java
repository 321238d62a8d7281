package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * The retry budget under SIGKILL (issue 33): a provider whose 200 rate-limit failures (no window advertised, so
 * neither paced nor a circuit's) and 20 successes are over its budget (20 %, and a floor of 5 a second over 10 s: 94
 * at once, then 50 a window and a slice), killed while its retries are held by the budget and again while they are
 * being released. Then, from {@code retry-ready} read_committed: each retry exactly once, none before its due time,
 * and no 10 s window with more than the budget (a restart must not hand the scope a fresh budget); another
 * provider's retries flow meanwhile.
 */
class RetryBudgetCrashIT {
    private static final int BUDGETED = 200;
    private static final int SUCCESSES = 20;
    private static final int STEADY = 10;
    /** 20 % of the 220 requests, and the reserve: 5 a second over 10 s. */
    private static final int WINDOW_BUDGET = (BUDGETED + SUCCESSES) / 5 + 50;

    @Test
    void killedWhileRetriesAreHeldByTheRetryBudgetEachIsReleasedOnceNoneEarlyAndNoWindowOverBudget() throws Exception {
        Scenarios.run("RetryBudgetCrashIT: SIGKILL while the retry budget holds retries", "retry-budget",
                (dir, random, figures, softly) -> {
            Map<String, String> settings = Scenarios.serviceSettings(1);
            settings.put("provider.retry.budget.min.per.second", "5");
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", settings)) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), List.of(PipelineChecks.RETRY_READY));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, app.registryUrl()), false).serializer();
                    long start = System.currentTimeMillis();
                    List<ProducerRecord<byte[], byte[]>> load = new ArrayList<>();
                    for (int i = 0; i < SUCCESSES; i++) {
                        load.add(record(avro, "budgeted", "ok-" + i, Success.newBuilder().build()));
                    }
                    for (int i = 0; i < BUDGETED; i++) {
                        load.add(record(avro, "budgeted", "budgeted-" + i, failure("llm-rate-limit")));
                    }
                    for (int i = 0; i < STEADY; i++) {
                        load.add(record(avro, "steady", "steady-" + i, failure("llm-timeout")));
                    }
                    producer.send(load);
                    producer.flush();

                    // the first releases leave, the rest are held by the budget: the first kill
                    boolean held = watcher.await(seen -> of(checks, "budgeted").size() >= 50, Duration.ofSeconds(60), Duration.ofSeconds(1));
                    softly.assertThat(held).as("budgeted retries released before the first kill").isTrue();
                    long before1 = of(checks, "budgeted").size();
                    figures.put("budgeted released before the first kill", before1 + " at +" + (System.currentTimeMillis() - start) + " ms");
                    softly.assertThat(before1).as("budgeted retries still held at the first kill").isLessThan(BUDGETED);
                    Duration down1 = Scenarios.killAndRestart(app, dir, random, figures, softly, 1);

                    // a second kill once the budget has released more after the restart
                    watcher.await(seen -> of(checks, "budgeted").size() > before1, Duration.ofSeconds(60), Duration.ZERO);
                    long before2 = of(checks, "budgeted").size();
                    figures.put("budgeted released before the second kill", before2 + " at +" + (System.currentTimeMillis() - start) + " ms");
                    softly.assertThat(before2).as("budgeted retries still held at the second kill").isLessThan(BUDGETED);
                    Duration down2 = Scenarios.killAndRestart(app, dir, random, figures, softly, 2);

                    boolean all = watcher.await(seen -> distinct(checks) == BUDGETED + STEADY, Duration.ofSeconds(150),
                            Duration.ofSeconds(5));
                    List<TopicWatcher.Seen> ready = watcher.records(PipelineChecks.RETRY_READY);
                    figures.put("downtime", down1.toMillis() + " ms, " + down2.toMillis() + " ms");
                    figures.put("retries on retry-ready", ready.size());
                    softly.assertThat(all).as("every retry released within 150 s").isTrue();
                    softly.assertThat(ready).as("each retry once").hasSize(BUDGETED + STEADY);
                    for (TopicWatcher.Seen seen : ready) {
                        RetryRequest retry = checks.decode(seen, RetryRequest.class);
                        softly.assertThat(seen.record().timestamp()).as("%s released at or after due", retry.getTaskId())
                                .isGreaterThanOrEqualTo(retry.getDueAt());
                    }
                    List<Long> budgetedAt = releasedAt(checks, watcher, "budgeted");
                    long busiest = budgetedAt.stream().mapToLong(from -> budgetedAt.stream()
                            .filter(at -> at >= from && at < from + 10_000).count()).max().orElse(0);
                    figures.put("budgeted retries in the busiest 10 s", busiest);
                    figures.put("budgeted released at (ms after the load)", budgetedAt.stream().sorted()
                            .map(at -> String.valueOf(at - start)).collect(Collectors.joining(" ")));
                    softly.assertThat(busiest).as("budgeted retries in any 10 s").isLessThanOrEqualTo(WINDOW_BUDGET);
                    List<RetryRequest> steady = of(checks, "steady");
                    softly.assertThat(steady).as("the other provider's retries").hasSize(STEADY);
                    softly.assertThat(app.healthState()).as("/health at the end").contains("RUNNING");
                }
            }
        });
    }

    private static List<RetryRequest> of(PipelineChecks checks, String provider) {
        return checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream()
                .filter(retry -> retry.getAgentResult().getExecution().getProvider().equals(provider)).toList();
    }

    private static List<Long> releasedAt(PipelineChecks checks, TopicWatcher watcher, String provider) {
        return watcher.records(PipelineChecks.RETRY_READY).stream()
                .filter(seen -> checks.decode(seen, RetryRequest.class).getAgentResult().getExecution().getProvider().equals(provider))
                .map(seen -> seen.record().timestamp()).toList();
    }

    private static long distinct(PipelineChecks checks) {
        return checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream().map(RetryRequest::getTaskId).distinct().count();
    }

    private static ProducerRecord<byte[], byte[]> record(Serializer<AgentResult> avro, String provider, String task, Object outcome) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task)
                .setDialect(Dialect.VAT_ENVELOPE).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).build();
        return new ProducerRecord<>(TopicNames.AGENT_RESULTS, task.getBytes(StandardCharsets.UTF_8),
                avro.serialize(TopicNames.AGENT_RESULTS, result));
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }
}
