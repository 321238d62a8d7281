package io.agentoutcomes.app.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.AgentOutcomesService;
import io.agentoutcomes.app.KafkaTestCluster;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.topology.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet} with a fixed seed against the pipeline on a real broker (in the test JVM): every number of its report
 * checked against this test's own {@code read_committed} reading of the topics, from the beginning. The service requires
 * credentials, so the fleet's registry client presents them.
 */
class FleetPipelineTest {
    @TempDir
    Path dataDir;

    @Test
    void everyNumberOfTheReportIsWhatTheTopicsHold() throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.start();
             AgentOutcomesService service = AgentOutcomesService.start(kafka.serviceConfig(dataDir, 2,
                     "backoff.cap.ms", "3000", "http.auth.basic.user.info", "fleet:fl33t-pa55"))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (service.streamsState() != KafkaStreams.State.RUNNING && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            // the embedded registry takes writes only with the service's credentials: the fleet presents them
            Map<String, Object> client = new HashMap<>(service.clientConfig());
            client.putAll(service.registryClientSettings());
            assertThat(client).containsEntry(AvroSerdeConfig.BASIC_AUTH_USER_INFO, "fleet:fl33t-pa55");
            client.put(OutcomePublisher.TOPIC_PREFIX, "");
            FleetReport report = FleetSession.run(new FleetSettings(client, 12, Duration.ofSeconds(12), 7, 0.5,
                    Duration.ofSeconds(60)), new PrintWriter(new StringWriter()));

            assertThat(report.settled()).isTrue();
            assertThat(report.publishFailures()).isZero();
            Map<String, List<ConsumerRecord<byte[], byte[]>>> topics = readCommitted(kafka.bootstrapServers());
            var outcomes = AvroSerde.specific(ClassifiedOutcome.class).configured(client, false).deserializer();
            var retries = AvroSerde.specific(RetryRequest.class).configured(client, false).deserializer();

            // published: the JSON topics hold what was sent; the Avro topics that and what ingestion normalized
            assertThat(topics.get(Topics.REJECTED_INPUT)).isEmpty();
            for (String json : List.of(Topics.AGENT_RESULTS_JSON, Topics.NODE_FINISHED_JSON, Topics.CONTINUATION_EVENTS_JSON)) {
                assertThat(report.publishedByTopic().get(json)).as(json).isEqualTo(topics.get(json).size());
                String avro = json.substring(0, json.length() - "-json".length());
                assertThat(report.publishedByTopic().get(avro) + report.publishedByTopic().get(json)).as(avro)
                        .isEqualTo(topics.get(avro).size());
            }
            assertThat(report.published()).isEqualTo(report.publishedByTopic().values().stream().mapToLong(Long::longValue).sum());

            Map<String, Long> byType = new TreeMap<>();
            Set<String> afterRetry = new HashSet<>();
            Map<String, BigDecimal> cost = new TreeMap<>();
            Map<String, Long> tokens = new TreeMap<>();
            Map<String, Long> byJob = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> record : topics.get(Topics.OUTCOMES_CLASSIFIED)) {
                ClassifiedOutcome outcome = outcomes.deserialize(record.topic(), record.headers(), record.value());
                byType.merge(outcome.getResultType().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
                if (outcome.getResultType() == ResultType.SUCCESS && outcome.getAttempt() > 0) {
                    afterRetry.add(outcome.getTaskId());
                }
                if (outcome.getJobId() != null) {
                    byJob.merge(outcome.getJobId(), 1L, Long::sum);
                }
                var execution = outcome.getAgentResult() == null ? null : outcome.getAgentResult().getExecution();
                if (execution != null && execution.getModel() != null) {
                    if (execution.getCost() != null) {
                        cost.merge(execution.getModel(), Money.toDecimal(execution.getCost().getTotal()), BigDecimal::add);
                    }
                    if (execution.getUsage() != null && execution.getUsage().getTotalTokens() != null) {
                        tokens.merge(execution.getModel(), execution.getUsage().getTotalTokens(), Long::sum);
                    }
                }
            }
            assertThat(report.outcomes()).isEqualTo(byType);
            assertThat(byType.keySet()).contains("success", "retryable_failure", "permanent_failure",
                    "compensatable_failure", "skipped", "in_progress");
            assertThat(report.succeededAfterRetry()).isEqualTo(afterRetry.size()).isPositive();
            assertThat(report.costByModel().keySet()).isEqualTo(cost.keySet()).hasSize(Catalog.MODELS.size());
            cost.forEach((model, usd) -> assertThat(report.costByModel().get(model)).as(model).isEqualByComparingTo(usd));
            assertThat(report.tokensByModel()).isEqualTo(tokens);
            long busiest = byJob.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(report.busiestJobOutcomes()).isEqualTo(busiest);
            assertThat(byJob.get(report.busiestJob())).isEqualTo(busiest);

            long scheduled = topics.entrySet().stream().filter(e -> e.getKey().startsWith(Topics.RETRY_DELAY_PREFIX))
                    .mapToLong(e -> e.getValue().size()).sum();
            assertThat(report.retriesScheduled()).isEqualTo(scheduled).isPositive();
            List<ConsumerRecord<byte[], byte[]>> ready = topics.get(Topics.RETRY_READY);
            assertThat(report.retriesDelivered()).isEqualTo(ready.size()).isEqualTo(scheduled);
            assertThat(report.retriesReceived()).isEqualTo(ready.size());
            long beforeDue = ready.stream().filter(r -> r.timestamp() < retries.deserialize(r.topic(), r.headers(), r.value())
                    .getDueAt()).count();
            assertThat(report.retriesDeliveredBeforeDue()).isEqualTo(beforeDue).isZero();
            assertThat(report.retriesEarly()).isZero();
            assertThat(report.reruns()).isPositive().isLessThanOrEqualTo(report.retriesReceived());

            Map<String, Long> deadByReason = new TreeMap<>();
            Map<String, Long> deadByCode = new TreeMap<>();
            for (ConsumerRecord<byte[], byte[]> record : topics.get(Topics.DEAD_LETTER)) {
                ClassifiedOutcome stopped = outcomes.deserialize(record.topic(), record.headers(), record.value());
                deadByReason.merge(stopped.getDecision().getStopReason().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
                deadByCode.merge(stopped.getErrorCode() == null ? "none" : stopped.getErrorCode(), 1L, Long::sum);
            }
            assertThat(report.deadLetters()).isEqualTo(deadByReason);
            assertThat(report.deadLettersByCode()).isEqualTo(deadByCode);
            assertThat(deadByReason).containsKey("error");
        }
    }

    /** Every record of the pipeline's topics, read_committed, from the beginning to the last stable offset. */
    private static Map<String, List<ConsumerRecord<byte[], byte[]>>> readCommitted(String bootstrap) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", bootstrap,
                "isolation.level", "read_committed", "enable.auto.commit", "false", "auto.offset.reset", "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics().values().stream().flatMap(List::stream)
                    .filter(p -> !p.topic().startsWith("_") && !p.topic().startsWith("agent-outcomes-"))
                    .map(p -> new TopicPartition(p.topic(), p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Map<String, List<ConsumerRecord<byte[], byte[]>>> byTopic = new HashMap<>();
            partitions.forEach(p -> byTopic.putIfAbsent(p.topic(), new ArrayList<>()));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                assertThat(System.nanoTime()).as("reading the topics to their ends").isLessThan(deadline);
                consumer.poll(Duration.ofMillis(200)).forEach(r -> byTopic.get(r.topic()).add(r));
            }
            return byTopic;
        }
    }
}
