package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
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
 * The provider gate under SIGKILL, at the service's defaults (the suite's backoff only): one provider's circuit opened
 * by its failures and another's retries paced by the budget it advertised (60 requests a minute, none left), the
 * service killed while the circuit is open and retries are held, then again while the paced retries are still being
 * released. Then every retry counted on {@code retry-ready} with a {@code read_committed} consumer: each exactly once,
 * none before its due time, none of the open provider's released while its circuit was open but the probes, the paced
 * ones never more than the budget in any minute; every circuit change on {@code provider-health} once.
 */
class ProviderGateCrashIT {
    private static final int PACED = 80;
    private static final int FLAKY = 40;
    private static final int STEADY = 10;
    private static final String HEALTH = TopicNames.PROVIDER_HEALTH;

    @Test
    void killedWhileACircuitIsOpenAndRetriesArePacedNoRetryIsLostDoubledOrEarly() throws Exception {
        Scenarios.run("ProviderGateCrashIT: SIGKILL while a circuit is open and retries are paced", "provider-gate",
                (dir, random, figures, softly) -> {
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", Scenarios.serviceSettings(1))) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), List.of(PipelineChecks.RETRY_READY, HEALTH));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, app.registryUrl()), false).serializer();
                    long start = System.currentTimeMillis();
                    RateLimitState exhausted = RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow
                            .newBuilder().setName("requests_per_minute").setResource("requests").setLimit(60L).setRemaining(0L)
                            .setResetsInMs(3_000L).setResetAtMs(start + 3_000).build())).build();
                    List<ProducerRecord<byte[], byte[]>> load = new ArrayList<>();
                    for (int i = 0; i < FLAKY; i++) {
                        load.add(record(avro, "flaky", "flaky-" + i, failure("llm-unavailable"), null));
                    }
                    for (int i = 0; i < PACED; i++) {
                        load.add(record(avro, "paced", "paced-" + i, failure("llm-rate-limit"), exhausted));
                    }
                    for (int i = 0; i < STEADY; i++) {
                        load.add(record(avro, "steady", "steady-" + i, failure("llm-timeout"), null));
                    }
                    producer.send(load);
                    producer.flush();

                    // the circuit opens, and paced retries start to leave: then the first kill
                    boolean opened = watcher.await(seen -> states(checks, watcher).contains(CircuitState.OPEN)
                            && of(checks, watcher, "paced").size() >= 5, Duration.ofSeconds(60), Duration.ZERO);
                    softly.assertThat(opened).as("circuit open and paced retries leaving before the first kill").isTrue();
                    figures.put("circuit open, first paced retries at", (System.currentTimeMillis() - start) + " ms");
                    Duration down1 = Scenarios.killAndRestart(app, dir, random, figures, softly, 1);
                    softly.assertThat(states(checks, watcher)).as("still open after the restart").containsExactly(CircuitState.OPEN);

                    // the provider recovers: successes until the circuit is closed
                    int successes = 0;
                    long recovering = System.currentTimeMillis();
                    while (!states(checks, watcher).contains(CircuitState.CLOSED) && System.currentTimeMillis() - recovering < 90_000) {
                        if (states(checks, watcher).contains(CircuitState.HALF_OPEN)) {
                            producer.send(List.of(record(avro, "flaky", "flaky-ok-" + successes++, Success.newBuilder().build(), null)));
                        }
                        Thread.sleep(500);
                    }
                    // a second kill while paced retries are still held
                    long pacedBefore = of(checks, watcher, "paced").size();
                    figures.put("paced released before the second kill", pacedBefore);
                    softly.assertThat(pacedBefore).as("paced retries still held at the second kill").isLessThan(PACED);
                    Duration down2 = Scenarios.killAndRestart(app, dir, random, figures, softly, 2);

                    boolean all = watcher.await(seen -> distinct(checks, watcher) == PACED + FLAKY + STEADY, Duration.ofSeconds(150),
                            Duration.ofSeconds(5));
                    List<TopicWatcher.Seen> ready = watcher.records(PipelineChecks.RETRY_READY);
                    List<ProviderHealth> changes = checks.values(HEALTH, ProviderHealth.class);
                    figures.put("retries on retry-ready", ready.size());
                    figures.put("circuit changes", changes.stream().map(c -> c.getState() + " at +" + (c.getAt() - start) + " ms")
                            .collect(Collectors.joining(", ")));
                    figures.put("downtime", down1.toMillis() + " ms, " + down2.toMillis() + " ms");
                    softly.assertThat(all).as("every retry released within 150 s").isTrue();
                    softly.assertThat(ready).as("each retry once").hasSize(PACED + FLAKY + STEADY);
                    for (TopicWatcher.Seen seen : ready) {
                        RetryRequest retry = checks.decode(seen, RetryRequest.class);
                        softly.assertThat(seen.record().timestamp()).as("%s released at or after due", retry.getTaskId())
                                .isGreaterThanOrEqualTo(retry.getDueAt());
                    }
                    softly.assertThat(changes).extracting(ProviderHealth::getState)
                            .as("one change of each: no change lost or published twice across the kills")
                            .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
                    if (changes.size() == 3) {
                        long openAt = changes.get(0).getAt();
                        long halfOpenAt = changes.get(1).getAt();
                        List<Long> flakyAt = releasedAt(checks, watcher, "flaky");
                        long whileOpen = flakyAt.stream().filter(at -> at > openAt && at < halfOpenAt).count();
                        figures.put("flaky retries released while open", whileOpen);
                        softly.assertThat(whileOpen).as("released while the circuit was open").isZero();
                        softly.assertThat(halfOpenAt - openAt).as("open for 30 s").isBetween(30_000L, 32_000L);
                    }
                    List<Long> pacedAt = releasedAt(checks, watcher, "paced");
                    long busiestMinute = pacedAt.stream().mapToLong(from -> pacedAt.stream()
                            .filter(at -> at >= from && at < from + 60_000).count()).max().orElse(0);
                    figures.put("paced retries in the busiest minute", busiestMinute);
                    figures.put("paced released at (ms after the load)", pacedAt.stream().sorted().map(at -> String.valueOf(at - start))
                            .collect(Collectors.joining(" ")));
                    softly.assertThat(busiestMinute).as("paced retries in any minute").isLessThanOrEqualTo(60);
                    softly.assertThat(pacedAt.stream().mapToLong(Long::longValue).min().orElse(0))
                            .as("no paced retry before the reset").isGreaterThanOrEqualTo(start + 3_000);
                    String health = app.healthState();
                    softly.assertThat(health).as("/health at the end").contains("RUNNING");
                }
            }
        });
    }

    private static List<CircuitState> states(PipelineChecks checks, TopicWatcher watcher) {
        return checks.values(HEALTH, ProviderHealth.class).stream().map(ProviderHealth::getState).toList();
    }

    private static List<RetryRequest> of(PipelineChecks checks, TopicWatcher watcher, String provider) {
        return checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream()
                .filter(retry -> retry.getAgentResult().getExecution().getProvider().equals(provider)).toList();
    }

    private static List<Long> releasedAt(PipelineChecks checks, TopicWatcher watcher, String provider) {
        return watcher.records(PipelineChecks.RETRY_READY).stream()
                .filter(seen -> checks.decode(seen, RetryRequest.class).getAgentResult().getExecution().getProvider().equals(provider))
                .map(seen -> seen.record().timestamp()).toList();
    }

    private static long distinct(PipelineChecks checks, TopicWatcher watcher) {
        return checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream().map(RetryRequest::getTaskId).distinct().count();
    }

    private static ProducerRecord<byte[], byte[]> record(Serializer<AgentResult> avro, String provider, String task, Object outcome,
                                                         RateLimitState rateLimit) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task)
                .setDialect(Dialect.VAT_ENVELOPE).setRateLimit(rateLimit).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel("m1").build()).build();
        return new ProducerRecord<>(TopicNames.AGENT_RESULTS, task.getBytes(StandardCharsets.UTF_8),
                avro.serialize(TopicNames.AGENT_RESULTS, result));
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }
}
