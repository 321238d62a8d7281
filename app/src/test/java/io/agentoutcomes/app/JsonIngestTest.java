package io.agentoutcomes.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** JSON input, of every dialect and in CloudEvents, comes out as canonical Avro read through the registry. */
class JsonIngestTest extends ServiceOnTestBroker {
    @Test
    void jsonOfEveryDialectComesOutAsCanonicalAvroReadThroughTheRegistry() throws Exception {
        AppConfig config = config("ingest");
        String prefix = config.topicPrefix();
        long time = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                List<ProducerRecord<String, String>> records = List.of(
                        json(prefix + "agent-results-json", "task-vat", time, "{\"resultId\":\"r-vat\","
                                + "\"result\":{\"status\":\"error\",\"error\":\"llm-timeout\",\"confidence\":0.7}}",
                                "agent-id", "photo-analyzer"),
                        json(prefix + "agent-results-json", "task-flat", time, "{\"resultId\":\"r-flat\",\"content\":\"hi\","
                                + "\"cost\":0.0000001,\"usage\":{\"input_tokens\":3,\"cache_read_tokens\":2}}",
                                "agent-id", "flat-agent"),
                        json(prefix + "agent-results-json", "task-review", time, "{\"resultId\":\"r-review\","
                                + "\"status\":\"skipped\",\"agentId\":\"typescript\",\"reason\":\"No TypeScript files\","
                                + "\"metrics\":{\"durationMs\":1,\"filesProcessed\":0}}"),
                        json(prefix + "node-finished-json", "job-1", time, "{\"type\":\"node_finished\",\"job_id\":\"job-1\","
                                + "\"payload\":{\"node_id\":\"n1\",\"result_type\":\"retryable_failure\","
                                + "\"reason\":\"timeout\",\"attempt\":1}}"),
                        json(prefix + "continuation-events-json", "agent-1", time, "{\"agentId\":\"agent-1\",\"step\":2,"
                                + "\"shouldContinue\":false,\"stopReason\":\"steps_limit\",\"resolvedBy\":\"StepsLimit\"}"));
                for (ProducerRecord<String, String> record : records) {
                    producer.send(record).get();
                }
            }
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());

            List<AgentResult> results = readAll(prefix + "agent-results", 3,
                    AvroSerde.specific(AgentResult.class).configured(serde, false).deserializer())
                    .stream().map(ConsumerRecord::value).sorted(Comparator.comparing(AgentResult::getResultId)).toList();
            NodeFinished node = readAll(prefix + "node-finished", 1,
                    AvroSerde.specific(NodeFinished.class).configured(serde, false).deserializer()).get(0).value();
            ContinuationEvaluated continuation = readAll(prefix + "continuation-events", 1,
                    AvroSerde.specific(ContinuationEvaluated.class).configured(serde, false).deserializer()).get(0).value();

            Instant at = Instant.ofEpochMilli(time);
            assertThat(results).containsExactly(
                    AgentResult.newBuilder().setResultId("r-flat").setAgentId("flat-agent").setTaskId("task-flat")
                            .setDialect(Dialect.FLATAGENTS).setRecordTimestamp(at.toEpochMilli())
                            .setExecution(ExecutionMetadata.newBuilder()
                                    .setUsage(Usage.newBuilder().setInputTokens(3L).setCacheReadTokens(2L).build())
                                    .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal("0.000000100000")))
                                            .setSource(CostSource.REPORTED).build()).build())
                            .setOutcome(Success.newBuilder().setContent("hi").build()).build(),
                    AgentResult.newBuilder().setResultId("r-review").setAgentId("typescript").setTaskId("task-review")
                            .setDialect(Dialect.REVIEW_AGENT).setRecordTimestamp(at.toEpochMilli())
                            .setExecution(ExecutionMetadata.newBuilder().setDurationMs(1L).build())
                            .setMetadata("{\"filesProcessed\":0}")
                            .setOutcome(Skipped.newBuilder().setReason("No TypeScript files").build()).build(),
                    AgentResult.newBuilder().setResultId("r-vat").setAgentId("photo-analyzer").setTaskId("task-vat")
                            .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(at.toEpochMilli()).setConfidence(0.7)
                            .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-timeout").build())
                                    .build()).build());
            assertThat(node).isEqualTo(NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setAttempt(1)
                    .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build());
            assertThat(continuation).isEqualTo(ContinuationEvaluated.newBuilder().setAgentId("agent-1").setStep(2)
                    .setShouldContinue(false).setStopReason(StopReason.STEPS_LIMIT).setResolvedBy("StepsLimit").build());
        }
    }

    @Test
    void cloudEventsFromDaprAndKnativePublishersAreUnwrappedAndClassifiedWithTheirIdentityAndTraceContext() throws Exception {
        AppConfig config = config("cloudevents");
        String prefix = config.topicPrefix();
        long time = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try (AgentOutcomesService service = AgentOutcomesService.start(config)) {
            awaitHealthy(service);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(), new StringSerializer(),
                    new StringSerializer())) {
                // Dapr pub/sub: a structured envelope, no content-type header, trace context as extensions
                producer.send(json(prefix + "agent-results-json", null, time, "{\"specversion\":\"1.0\","
                        + "\"id\":\"dapr-1\",\"source\":\"photo-analyzer\",\"type\":\"com.dapr.event.sent\","
                        + "\"subject\":\"task-dapr\",\"datacontenttype\":\"application/json\",\"pubsubname\":\"kafka\","
                        + "\"traceparent\":\"" + traceparent + "\",\"tracestate\":\"rojo=1\","
                        + "\"data\":{\"status\":\"error\",\"error\":\"llm-rate-limit\"}}")).get();
                // a binary-mode event, as a Knative KafkaSink writes one
                producer.send(json(prefix + "agent-results-json", "partition-key", time,
                        "{\"status\":\"success\",\"data\":{\"ok\":true}}", "ce_specversion", "1.0", "ce_id", "knative-1",
                        "ce_source", "/apis/v1/namespaces/agents/reviewer", "ce_type", "dev.agents.result",
                        "ce_subject", "task-knative", "content-type", "application/json")).get();
            }
            Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());

            List<ConsumerRecord<String, AgentResult>> results = readAll(prefix + "agent-results", 2,
                    AvroSerde.specific(AgentResult.class).configured(serde, false).deserializer());
            List<ConsumerRecord<String, ClassifiedOutcome>> outcomes = readAll(
                    prefix + "outcomes-classified", 2,
                    AvroSerde.specific(ClassifiedOutcome.class).configured(serde, false).deserializer());

            Map<String, ConsumerRecord<String, AgentResult>> byId = new HashMap<>();
            results.forEach(r -> byId.put(r.value().getResultId(), r));
            Instant at = Instant.ofEpochMilli(time);
            assertThat(byId.get("dapr-1").value()).isEqualTo(AgentResult.newBuilder().setResultId("dapr-1")
                    .setAgentId("photo-analyzer").setTaskId("task-dapr").setDialect(Dialect.VAT_ENVELOPE)
                    .setRecordTimestamp(at.toEpochMilli()).setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder()
                            .setCode("llm-rate-limit").build()).build()).build());
            assertThat(byId.get("knative-1").value()).isEqualTo(AgentResult.newBuilder().setResultId("knative-1")
                    .setAgentId("/apis/v1/namespaces/agents/reviewer").setTaskId("task-knative")
                    .setDialect(Dialect.VAT_ENVELOPE).setRecordTimestamp(at.toEpochMilli())
                    .setOutcome(Success.newBuilder().setData("{\"ok\":true}").build()).build());
            Map<String, String> daprHeaders = new HashMap<>();
            byId.get("dapr-1").headers().forEach(h -> daprHeaders.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
            assertThat(daprHeaders).containsEntry("traceparent", traceparent).containsEntry("tracestate", "rojo=1")
                    .containsEntry("ce_id", "dapr-1").containsEntry("ce_type", "com.dapr.event.sent")
                    .containsEntry("ce_pubsubname", "kafka").doesNotContainKey("content-type");
            assertThat(outcomes).extracting(r -> r.key() + " " + r.value().getResultId() + " " + r.value().getResultType())
                    .containsExactlyInAnyOrder("task-dapr dapr-1 RETRYABLE_FAILURE", "task-knative knative-1 SUCCESS");
        }
    }
}
