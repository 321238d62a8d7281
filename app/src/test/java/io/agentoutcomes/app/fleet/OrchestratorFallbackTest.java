package io.agentoutcomes.app.fleet;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.TestServiceConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.client.DueRetry;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.ResultBuilder;
import io.agentoutcomes.client.testing.TestBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The fleet simulator's orchestrator honours a retry's fallback model: it re-runs the task on it (issue 33 item 2). */
class OrchestratorFallbackTest {
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void aRetryCarryingAFallbackIsReRunOnTheFallbackModelAndOneWithoutOnItsOwn() throws Exception {
        try (AgentOutcomesService service = AgentOutcomesService.start(TestServiceConfig.on(kafka, dataDir, 1))) {
            waitForCondition(() -> service.streamsState() == KafkaStreams.State.RUNNING, 60_000, "Kafka Streams RUNNING");
            Map<String, Object> client = new HashMap<>(service.clientConfig());
            client.putAll(service.registryClientSettings());
            client.put(OutcomePublisher.TOPIC_PREFIX, "");
            try (OutcomePublisher publisher = OutcomePublisher.create(client)) {
                SentLedger ledger = new SentLedger(publisher);
                Orchestrator orchestrator = new Orchestrator(publisher, ledger, 7, 1.0, false);
                RetryRequest diverted = retry("task-f");
                diverted.setFallbackProvider("anthropic");
                diverted.setFallbackModel("claude-sonnet-4");
                diverted.setFallbackCause(FallbackCause.CIRCUIT_OPEN);
                diverted.setFallbackReason("circuit open on openai/gpt-4o-mini: re-run on anthropic/claude-sonnet-4 "
                        + "(fallback.openai/gpt-4o-mini=anthropic/claude-sonnet-4)");
                orchestrator.onRetry(new DueRetry(diverted, Instant.now(), 0, 0, null));
                orchestrator.onRetry(new DueRetry(retry("task-w"), Instant.now(), 0, 1, null));
                ledger.settle();

                assertThat(orchestrator.fallbackReruns()).isEqualTo(1);
                assertThat(orchestrator.reruns()).isEqualTo(2);
                Map<String, String> models = new HashMap<>();
                for (AgentResult rerun : read(client, 2)) {
                    models.put(rerun.getTaskId(), rerun.getExecution().getProvider() + "/" + rerun.getExecution().getModel());
                }
                assertThat(models).containsExactlyInAnyOrderEntriesOf(Map.of("task-f", "anthropic/claude-sonnet-4",
                        "task-w", "openai/gpt-4o-mini"));
                assertThat(ledger.sentTokensByModel()).containsOnlyKeys("claude-sonnet-4", "gpt-4o-mini");
            }
        }
    }

    private static RetryRequest retry(String task) {
        long due = System.currentTimeMillis() - 1_000;
        return RetryRequest.newBuilder().setTaskId(task).setResultId(task + "/0").setAgentId("planner").setNextAttempt(1)
                .setErrorCode("llm-unavailable").setDelayMs(1000).setDelayReason("backoff 1000 ms x 2^0").setTier("1s")
                .setFailedAt(due - 1_000).setDueAt(due).setReason("Model error, retrying (1/5)").setAction(RetryAction.WAIT)
                .setAgentResult(ResultBuilder.of("planner", task).model("openai", "gpt-4o-mini").error("llm-unavailable", "overloaded"))
                .build();
    }

    private static List<AgentResult> read(Map<String, Object> client, int expected) throws InterruptedException {
        Map<String, Object> config = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<AgentResult> results = new ArrayList<>();
        try (KafkaConsumer<String, AgentResult> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                AvroSerde.specific(AgentResult.class).configured(client, false).deserializer())) {
            consumer.subscribe(List.of(TopicNames.AGENT_RESULTS));
            waitForCondition(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> results.add(record.value()));
                return results.size() >= expected;
            }, 30_000, () -> "results on agent-results: " + results.size());
        }
        return results;
    }
}
