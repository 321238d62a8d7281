package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries on a real broker answer completely or say they cannot: the job list is paged newest first across two
 * instances, and analytics right after a restart (partitions assigned, stores restored) is 503, never empty.
 */
class QueryAvailabilityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    private static AppConfig config(String prefix, Path dataDir) {
        return TestServiceConfig.on(kafka, dataDir, 4, ConfigLoader.APPLICATION_ID, prefix + "app", ConfigLoader.TOPIC_PREFIX, prefix,
                "analytics.flush.interval.ms", "200");
    }

    @Test
    void theJobListIsPagedNewestFirstAcrossInstances() throws Exception {
        String prefix = "pages-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        try (AgentOutcomesService a = AgentOutcomesService.start(config(prefix, dirA));
             AgentOutcomesService b = AgentOutcomesService.start(config(prefix, dirB))) {
            publishJobs(a, prefix, 12);
            awaitOk(b, "/jobs?limit=12", body -> body.get("jobs").size() == 12);

            JsonNode first = JSON.readTree(awaitOk(b, "/jobs?limit=5", body -> true));
            assertThat(ids(first)).containsExactly("job-11", "job-10", "job-9", "job-8", "job-7");
            assertThat(first.get("jobs").get(0).toString()).isEqualTo("{\"jobId\":\"job-11\",\"status\":\"RUNNING\","
                    + "\"completed\":1,\"nodes\":1,\"updatedAt\":\"2026-03-01T12:00:11Z\"}");
            String next = first.get("next").asText();
            assertThat(next).isEqualTo(String.format("%019d|job-7", Long.MAX_VALUE - T.plusSeconds(7).toEpochMilli()));
            JsonNode second = JSON.readTree(awaitOk(a, "/jobs?limit=5&after=" + URLEncoder.encode(next, StandardCharsets.UTF_8),
                    body -> true));
            assertThat(ids(second)).containsExactly("job-6", "job-5", "job-4", "job-3", "job-2");
            JsonNode last = JSON.readTree(awaitOk(b, "/jobs?limit=5&after="
                    + URLEncoder.encode(second.get("next").asText(), StandardCharsets.UTF_8), body -> true));
            assertThat(ids(last)).containsExactly("job-1", "job-0");
            assertThat(last.get("next").isNull()).isTrue();
        }
    }

    @Test
    void analyticsRightAfterARestartIsCompleteOr503NeverEmpty() throws Exception {
        String prefix = "restart-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        String path = "/analytics?window=total&by=agent";
        String before;
        AgentOutcomesService first = AgentOutcomesService.start(config(prefix, dirA));
        try (AgentOutcomesService service = first) {
            publishResults(service, prefix, 40);
            before = awaitOk(service, path, body -> body.toString().contains("\"attempts\":40"));
        }
        // Closed cleanly: its last transaction committed what it had answered.
        assertThat(first.fatalError()).isNotDone();

        // A fresh state directory: the analytics store is restored from its changelog before it can answer.
        AgentOutcomesService second = AgentOutcomesService.start(config(prefix, dirB));
        try (AgentOutcomesService restarted = second) {
            List<Integer> statuses = new ArrayList<>();
            // Not ready while the partitions are assigned and the stores restored; alive all the while.
            List<Integer> readiness = new ArrayList<>(List.of(get(restarted, "/health/ready").statusCode()));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            HttpResponse<String> answer = get(restarted, path);
            while (answer.statusCode() != 200 && System.nanoTime() < deadline) {
                statuses.add(answer.statusCode());
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
                assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(JSON.readTree(answer.body()).get("error").asText()).isEqualTo("unavailable");
                assertThat(get(restarted, "/health/live").statusCode()).isEqualTo(200);
                readiness.add(get(restarted, "/health/ready").statusCode());
                Thread.sleep(20);
                answer = get(restarted, path);
            }
            assertThat(answer.body()).isEqualTo(before);
            assertThat(statuses).as("answers before the first 200").isNotEmpty();
            assertThat(readiness.get(0)).as("ready right after start").isEqualTo(503);
            assertThat(readiness).as("readiness while restoring").isSubsetOf(503, 200);
            assertThat(get(restarted, "/health/ready").statusCode()).isEqualTo(200);
        }
        // Closed right after it became ready: still no fatal error (the metrics binder was closed under it).
        assertThat(second.fatalError()).isNotDone();
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("jobs").forEach(job -> ids.add(job.get("jobId").asText()));
        return ids;
    }

    private static void publishJobs(AgentOutcomesService service, String prefix, int jobs) throws Exception {
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
        try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), new StringSerializer(),
                AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
            for (int job = 0; job < jobs; job++) {
                NodeFinished event = NodeFinished.newBuilder().setJobId("job-" + job).setNodeId("n0").setStepIndex(0)
                        .setAttempt(0).setResultType(StepResultType.SUCCESS).setTimestamp(T.plusSeconds(job).toEpochMilli()).build();
                producer.send(new ProducerRecord<>(prefix + TopicNames.NODE_FINISHED, null, T.plusSeconds(job).toEpochMilli(),
                        "job-" + job, event)).get();
            }
        }
    }

    private static void publishResults(AgentOutcomesService service, String prefix, int results) throws Exception {
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, service.schemaRegistryUrl());
        try (KafkaProducer<String, AgentResult> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), new StringSerializer(),
                AvroSerde.specific(AgentResult.class).configured(serde, false).serializer())) {
            for (int i = 0; i < results; i++) {
                AgentResult result = AgentResult.newBuilder().setResultId("r-" + i).setAgentId("agent-0")
                        .setTaskId("task-" + i).setExecution(ExecutionMetadata.newBuilder().setModel("m").setProvider("p")
                                .setUsage(Usage.newBuilder().setInputTokens(10L).setOutputTokens(1L).build()).build())
                        .setOutcome(Success.newBuilder().build()).build();
                producer.send(new ProducerRecord<>(prefix + TopicNames.AGENT_RESULTS, null, T.plusSeconds(i).toEpochMilli(),
                        result.getTaskId(), result)).get();
            }
        }
    }

    private interface BodyCheck {
        boolean done(JsonNode body);
    }

    /** The body of the first 200 answer that passes the check; 503 answers (rebalancing) are waited out. */
    private String awaitOk(AgentOutcomesService service, String path, BodyCheck check) throws Exception {
        List<HttpResponse<String>> answers = new ArrayList<>();
        waitForCondition(() -> {
            HttpResponse<String> answer = get(service, path);
            answers.add(answer);
            return answer.statusCode() == 200 && check.done(JSON.readTree(answer.body()));
        }, 90_000, () -> "no answer for " + path + "; last " + (answers.isEmpty() ? null
                : answers.get(answers.size() - 1).statusCode() + " " + answers.get(answers.size() - 1).body()));
        assertThat(answers).allSatisfy(answer -> assertThat(answer.statusCode()).as(answer.body()).isIn(200, 503));
        return answers.get(answers.size() - 1).body();
    }

    private HttpResponse<String> get(AgentOutcomesService service, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
