package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * An upgrade that turns a stage on keeps every other task's local state (issue 29 item 6): a data directory made by
 * the service without budgets, then the service started on it with a budget declared. A task whose sub-topology was
 * renumbered would find another stage's directory and restore its stores from their changelogs; after a clean stop,
 * a persistent store of a task that kept its number restores nothing.
 */
class StageUpgradeTest extends ServiceOnTestBroker {
    /** Persistent stores of the stages on by default: classification, the retry scheduler, the provider gate, analytics. */
    private static final List<String> STORES = List.of("agent-tasks", "retry-pending", "provider-state", "analytics-windows");

    @Test
    void declaringTheFirstBudgetOnAnExistingDataDirectoryRestoresNoOtherStagesState() throws Exception {
        // retries of llm-timeout wait two minutes in the scheduler's store, across the restart
        AppConfig before = config("upgrade", Map.of("backoff.base.llm-timeout.ms", "120000"));
        String prefix = before.topicPrefix();
        try (AgentOutcomesService service = AgentOutcomesService.start(before)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
                for (int i = 0; i < 20; i++) {
                    producer.send(record(prefix, "task-" + i, i % 2 == 0 ? Success.newBuilder().build()
                            : Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build()).build())).get();
                }
            }
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                waitForCondition(() -> STORES.stream().allMatch(store -> changelogEnd(admin, before, store) > 0), 60_000,
                        () -> "every store has written to its changelog: " + STORES.stream().collect(Collectors.toMap(
                                store -> store, store -> changelogEnd(admin, before, store))));
            }
        }

        Map<String, String> budget = new HashMap<>(Map.of(
                "backoff.base.llm-timeout.ms", "120000", "budget.daily.dimension", "agent", "budget.daily.limit.usd", "1",
                "budget.daily.stop-retries", "true"));
        budget.put(ConfigLoader.TOPIC_PREFIX, prefix);
        budget.put(ConfigLoader.APPLICATION_ID, before.applicationId());
        AppConfig after = TestServiceConfig.on(kafka, dataDir, 2, budget);
        try (AgentOutcomesService service = AgentOutcomesService.start(after)) {
            awaitHealthy(service);

            Map<String, Long> restored = service.restoredRecords();
            assertThat(STORES).as("stores restored from their changelogs: %s", restored)
                    .allSatisfy(store -> assertThat(restored.getOrDefault(store, 0L)).as(store).isZero());
        }
    }

    private static ProducerRecord<String, AgentResult> record(String prefix, String task, Object outcome) {
        return new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS, task, AgentResult.newBuilder().setResultId("r-" + task)
                .setAgentId("a").setTaskId(task).setDialect(Dialect.NATIVE).setOutcome(outcome)
                .setExecution(ExecutionMetadata.newBuilder().setProvider("openai").setModel("gpt-4o")
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.10"))).build()).build()).build());
    }

    /** The sum of the end offsets of a store's changelog partitions (0 while nothing was written). */
    private static long changelogEnd(Admin admin, AppConfig config, String store) {
        String changelog = config.applicationId() + "-" + store + "-changelog";
        try {
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            for (int partition = 0; partition < 2; partition++) {
                ends.put(new TopicPartition(changelog, partition), OffsetSpec.latest());
            }
            return admin.listOffsets(ends).all().get().values().stream().mapToLong(info -> info.offset()).sum();
        } catch (Exception e) {
            return 0;
        }
    }
}
