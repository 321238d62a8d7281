package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.FallbackCause;
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
 * Fallback models under SIGKILL (issue 33 item 2), at the service's defaults (the suite's backoff only) with one chain,
 * {@code fallback.flaky/m1=backup/m2}: flaky/m1's circuit opens, its due retries go to backup/m2 and are released there
 * at backup/m2's own budget (60 requests a minute), and the service is killed twice while they are in flight. Then
 * every retry counted on {@code retry-ready} with a {@code read_committed} consumer: each exactly once, none before
 * its due time, every one on the fallback, never more than backup/m2's budget in any minute; and each move counted
 * once on {@code /providers} (the count commits with the move).
 */
class FallbackCrashIT {
    private static final int FLAKY = 40;
    private static final int LIMIT = 60;
    private static final String HEALTH = TopicNames.PROVIDER_HEALTH;

    @Test
    void killedWhileRetriesAreInFlightOnTheFallbackNoRetryIsLostDoubledOrEarly() throws Exception {
        Map<String, String> settings = Scenarios.serviceSettings(1);
        settings.put("fallback.flaky/m1", "backup/m2");
        Scenarios.run("FallbackCrashIT: SIGKILL while retries are in flight on a fallback model", "fallback",
                (dir, random, figures, softly) -> {
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", settings)) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), List.of(PipelineChecks.RETRY_READY, HEALTH));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                            .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, app.registryUrl()), false).serializer();
                    long start = System.currentTimeMillis();
                    RateLimitState budget = RateLimitState.newBuilder().setLimited(false).setWindows(List.of(RateLimitWindow
                            .newBuilder().setName("requests").setResource("requests").setLimit((long) LIMIT)
                            .setRemaining((long) LIMIT).build())).build();
                    List<ProducerRecord<byte[], byte[]>> load = new ArrayList<>();
                    load.add(record(avro, "backup", "m2", "backup-ok", Success.newBuilder().build(), budget));
                    for (int i = 0; i < FLAKY; i++) {
                        load.add(record(avro, "flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null));
                    }
                    producer.send(load);
                    producer.flush();

                    // the circuit opens and the first retries leave on the fallback: the first kill
                    boolean diverted = watcher.await(seen -> states(checks).contains(CircuitState.OPEN)
                            && checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).size() >= 5, Duration.ofSeconds(60),
                            Duration.ZERO);
                    softly.assertThat(diverted).as("circuit open and retries leaving on the fallback before the first kill").isTrue();
                    figures.put("circuit open, first fallback retries at", (System.currentTimeMillis() - start) + " ms");
                    Duration down1 = Scenarios.killAndRestart(app, dir, random, figures, softly, 1);
                    long before2 = checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).size();
                    figures.put("released before the second kill", before2);
                    softly.assertThat(before2).as("fallback retries still in flight at the second kill").isLessThan(FLAKY);
                    Duration down2 = Scenarios.killAndRestart(app, dir, random, figures, softly, 2);

                    boolean all = watcher.await(seen -> distinct(checks) == FLAKY, Duration.ofSeconds(180), Duration.ofSeconds(5));
                    List<TopicWatcher.Seen> ready = watcher.records(PipelineChecks.RETRY_READY);
                    figures.put("retries on retry-ready", ready.size());
                    figures.put("circuit changes", checks.values(HEALTH, ProviderHealth.class).stream()
                            .map(c -> c.getProvider() + " " + c.getState() + " at +" + (c.getAt() - start) + " ms")
                            .collect(Collectors.joining(", ")));
                    figures.put("downtime", down1.toMillis() + " ms, " + down2.toMillis() + " ms");
                    softly.assertThat(all).as("every retry released within 180 s").isTrue();
                    softly.assertThat(ready).as("each retry once").hasSize(FLAKY);
                    List<Long> at = new ArrayList<>();
                    for (TopicWatcher.Seen seen : ready) {
                        RetryRequest retry = checks.decode(seen, RetryRequest.class);
                        at.add(seen.record().timestamp());
                        softly.assertThat(seen.record().timestamp()).as("%s released at or after due", retry.getTaskId())
                                .isGreaterThanOrEqualTo(retry.getDueAt());
                        softly.assertThat(retry.getFallbackModel()).as("%s on the fallback", retry.getTaskId()).isEqualTo("m2");
                        softly.assertThat(retry.getFallbackCause()).as("%s's cause", retry.getTaskId())
                                .isEqualTo(FallbackCause.CIRCUIT_OPEN);
                    }
                    long busiestMinute = at.stream().mapToLong(from -> at.stream().filter(t -> t >= from && t < from + 60_000).count())
                            .max().orElse(0);
                    figures.put("fallback retries in the busiest minute", busiestMinute);
                    figures.put("released at (ms after the load)", at.stream().sorted().map(t -> String.valueOf(t - start))
                            .collect(Collectors.joining(" ")));
                    softly.assertThat(busiestMinute).as("fallback retries in any minute").isLessThanOrEqualTo(LIMIT);
                    // each move counted once, whatever the kills: backup/m2's count of retries taken from flaky/m1
                    JsonNode backup = null;
                    for (JsonNode scope : new ObjectMapper().readTree(app.get("/providers").body()).get("providers")) {
                        backup = "backup".equals(scope.path("provider").asText()) ? scope : backup;
                    }
                    String received = backup == null ? "no scope" : backup.path("fallbacksReceived").toString();
                    figures.put("/providers backup/m2 fallbacksReceived", received);
                    softly.assertThat(received).as("/providers: retries moved to backup/m2")
                            .isEqualTo("[{\"provider\":\"flaky\",\"model\":\"m1\",\"cause\":\"CIRCUIT_OPEN\",\"retries\":" + FLAKY + "}]");
                    softly.assertThat(app.healthState()).as("/health at the end").contains("RUNNING");
                }
            }
        });
    }

    private static List<CircuitState> states(PipelineChecks checks) {
        return checks.values(HEALTH, ProviderHealth.class).stream().map(ProviderHealth::getState).toList();
    }

    private static long distinct(PipelineChecks checks) {
        return checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream().map(RetryRequest::getTaskId).distinct().count();
    }

    private static ProducerRecord<byte[], byte[]> record(Serializer<AgentResult> avro, String provider, String model, String task,
                                                         Object outcome, RateLimitState rateLimit) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + task).setAgentId("agent").setTaskId(task)
                .setDialect(Dialect.VAT_ENVELOPE).setRateLimit(rateLimit).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider(provider).setModel(model).build()).build();
        return new ProducerRecord<>(TopicNames.AGENT_RESULTS, task.getBytes(StandardCharsets.UTF_8),
                avro.serialize(TopicNames.AGENT_RESULTS, result));
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }
}
