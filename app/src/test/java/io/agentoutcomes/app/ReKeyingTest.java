package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Records keyed by anything but their task or job are re-keyed, so counts and queries stay whole. */
class ReKeyingTest extends ServiceOnTestBroker {
    @Test
    void recordsKeyedByAnythingButTheirTaskOrJobAreReKeyedSoCountsAndQueriesStayWhole() throws Exception {
        AppConfig config = config("keys", Map.of(ConfigLoader.TOPIC_PARTITIONS, "4"));
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
            try (KafkaProducer<String, AgentResult> results = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(AgentResult.class).configured(serde, false).serializer());
                 KafkaProducer<String, NodeFinished> events = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
                for (int i = 0; i < 5; i++) {
                    AgentResult failure = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("agent-1")
                            .setTaskId("task-1").setDialect(Dialect.VAT_ENVELOPE)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build();
                    // Keys spread over the partitions; one record has no key at all.
                    results.send(new ProducerRecord<>(config.topicPrefix() + "agent-results", i == 4 ? null : "key-" + i,
                            failure)).get();
                }
                events.send(new ProducerRecord<>(config.topicPrefix() + "node-finished", "not-the-job", NodeFinished
                        .newBuilder().setJobId("job-k").setNodeId("n1").setStepIndex(1)
                        .setResultType(StepResultType.SUCCESS).build())).get();
            }

            List<ConsumerRecord<String, ClassifiedOutcome>> outcomes = readAll(
                    config.topicPrefix() + "outcomes-classified", 6,
                    AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false).deserializer());
            assertThat(outcomes).filteredOn(record -> record.key().equals("task-1"))
                    .extracting(record -> record.value().getAttempt()).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
            List<ConsumerRecord<String, ClassifiedOutcome>> dead = readAll(
                    config.topicPrefix() + "dead-letter", 1,
                    AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false).deserializer());
            assertThat(dead.get(0).value().getDecision().getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
            HttpResponse<String> job = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.httpUrl() + "/jobs/job-k")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(job.statusCode()).isEqualTo(200);
            assertThat(job.body()).contains("\"completedNodeIds\":[\"n1\"]");
        }
    }
}
