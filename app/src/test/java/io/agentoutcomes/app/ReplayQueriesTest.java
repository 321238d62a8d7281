package io.agentoutcomes.app;

import static org.apache.kafka.test.TestUtils.waitForCondition;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.app.config.AppConfig;
import io.agentoutcomes.app.config.ConfigLoader;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.client.testing.TestBroker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay-state queries with two instances of the service on a real broker, before and after one of them stops. Both
 * speak HTTPS (a keystore made with keytool, trusted by both) and require credentials: a job held by the other
 * instance, and the job list with its part, are fetched from it over HTTPS with the service's own credentials, and the
 * services register their schemas with their embedded registries over HTTPS with them too.
 */
class ReplayQueriesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int JOBS = 12;
    private static final String USER_INFO = "replay-reader:qu3ries-pa55";
    private static final String AUTHORIZATION = "Basic "
            + Base64.getEncoder().encodeToString(USER_INFO.getBytes(StandardCharsets.UTF_8));
    @RegisterExtension
    static final TestBroker kafka = new TestBroker();

    private static TestKeystore keystore;
    private static HttpClient http;

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    @BeforeAll
    static void makeKeystore(@TempDir Path keys) throws Exception {
        keystore = TestKeystore.create(keys);
        http = HttpClient.newBuilder().sslContext(keystore.trustingContext()).build();
    }

    private static AppConfig config(String prefix, Path dataDir) {
        Map<String, String> settings = new HashMap<>(keystore.serverSettings());
        settings.putAll(Map.of(ConfigLoader.APPLICATION_ID, prefix + "app", ConfigLoader.TOPIC_PREFIX, prefix,
                "http.auth.basic.user.info", USER_INFO));
        return TestServiceConfig.on(kafka, dataDir, 4, settings);
    }

    @Test
    void eitherInstanceAnswersForEveryJobAndTheSurvivorAnswersForAllAfterTheOtherStops() throws Exception {
        String prefix = "replay-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        AgentOutcomesService a = AgentOutcomesService.start(config(prefix, dirA));
        assertThat(a.httpUrl()).startsWith("https://");
        assertThat(a.schemaRegistryUrl()).startsWith("https://");
        AgentOutcomesService b = null;
        try {
            b = AgentOutcomesService.start(config(prefix, dirB));
            publishJobs(a, prefix);

            Map<String, JsonNode> fromA = new HashMap<>();
            for (int job = 0; job < JOBS; job++) {
                JsonNode state = awaitJob(a, "job-" + job, 3);
                assertThat(awaitJob(b, "job-" + job, 3)).as("job-%d from the other instance", job).isEqualTo(state);
                fromA.put("job-" + job, state);
            }
            JsonNode job0 = fromA.get("job-0");
            assertThat(job0.get("status").asText()).isEqualTo("FAILED");
            assertThat(job0.get("completedNodeIds")).isEqualTo(JSON.readTree("[\"n0\"]"));
            assertThat(job0.get("cursorNode").asText()).isEqualTo("n0");
            assertThat(job0.get("payloadResults")).isEqualTo(JSON.readTree("{\"n0\":\"{\\\"rows\\\":0}\"}"));
            assertThat(job0.at("/nodes/1/attempts/0/resultType").asText()).isEqualTo("RETRYABLE_FAILURE");
            assertThat(answered(b, "/jobs/job-0/completed").body()).isEqualTo(
                    "{\"jobId\":\"job-0\",\"completedNodeIds\":[\"n0\"],\"cursorNode\":\"n0\"}");
            // issue 19 item 4: every job answer says it reads uncommitted state (a crash may take a count back)
            for (String path : List.of("/jobs/job-0", "/jobs/job-0/completed", "/jobs")) {
                assertThat(answered(b, path).headers().firstValue("X-Isolation-Level")).as("%s's isolation header", path)
                        .contains("read_uncommitted");
                assertThat(answered(a, path).headers().firstValue("X-Isolation-Level")).as("%s's isolation header", path)
                        .contains("read_uncommitted");
            }
            assertThat(JSON.readTree(answered(b, "/jobs").body()).get("isolationLevel").asText()).isEqualTo("read_uncommitted");
            HttpResponse<String> missing = answered(b, "/jobs/no-such-job");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.body()).isEqualTo("{\"error\":\"job not found\",\"detail\":\"no-such-job\"}");
            for (String path : List.of("/jobs/job-0", "/jobs/job-0/completed", "/jobs", "/jobs/export", "/ui/jobs/job-0")) {
                assertThat(http.send(HttpRequest.newBuilder(URI.create(b.httpUrl() + path)).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).as("GET %s without credentials", path).isEqualTo(401);
            }

            a.close();
            a = null;
            for (int job = 0; job < JOBS; job++) {
                assertThat(awaitJob(b, "job-" + job, 3)).as("job-%d after the rebalance", job).isEqualTo(fromA.get("job-" + job));
            }
            JsonNode list = JSON.readTree(get(b, "/jobs").body());
            assertThat(list.get("jobs")).hasSize(JOBS);
        } finally {
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
        }
    }

    private static void publishJobs(AgentOutcomesService service, String prefix) throws Exception {
        Map<String, Object> serde = new HashMap<>(service.registryClientSettings());
        Instant t = Instant.parse("2026-03-01T12:00:00Z");
        try (KafkaProducer<String, NodeFinished> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                kafka.bootstrapServers()), new StringSerializer(),
                AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer())) {
            for (int job = 0; job < JOBS; job++) {
                String jobId = "job-" + job;
                List<NodeFinished> events = List.of(
                        NodeFinished.newBuilder().setJobId(jobId).setNodeId("n0").setStepIndex(0).setAttempt(0)
                                .setResultType(StepResultType.SUCCESS).setPayloadResults("{\"rows\":" + job + "}")
                                .setTimestamp(t.toEpochMilli()).build(),
                        NodeFinished.newBuilder().setJobId(jobId).setNodeId("n1").setStepIndex(1).setAttempt(0)
                                .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").setTimestamp(t.toEpochMilli()).build(),
                        NodeFinished.newBuilder().setJobId(jobId).setNodeId("n2").setStepIndex(2).setAttempt(0)
                                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("404").setTimestamp(t.toEpochMilli()).build());
                for (NodeFinished event : events) {
                    producer.send(new ProducerRecord<>(prefix + TopicNames.NODE_FINISHED, jobId, event)).get();
                }
            }
        }
    }

    /**
     * The first answer that is not a 503: right after both instances answered, Kafka Streams may still move a task
     * (a probing rebalance places the standbys), and a query touching a moving partition is unavailable, without
     * the headers of an answer.
     */
    private HttpResponse<String> answered(AgentOutcomesService service, String path) throws Exception {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        waitForCondition(() -> {
            try {
                last.set(get(service, path));
            } catch (IOException e) {
                failure.set(e);
                return false;
            }
            return last.get().statusCode() != 503;
        }, 30_000, () -> path + " answered only " + (last.get() == null ? "failures: " + failure.get()
                : last.get().statusCode() + " " + last.get().body()));
        return last.get();
    }

    /** The job's state once it has all its nodes; 503 answers (rebalancing) are waited out. */
    private JsonNode awaitJob(AgentOutcomesService service, String jobId, int nodes) throws Exception {
        List<HttpResponse<String>> answers = new ArrayList<>();
        waitForCondition(() -> {
            HttpResponse<String> answer = get(service, "/jobs/" + jobId);
            answers.add(answer);
            return answer.statusCode() == 200 && JSON.readTree(answer.body()).get("nodes").size() == nodes;
        }, 60_000, () -> "no complete state for " + jobId + "; last answer " + (answers.isEmpty() ? null
                : answers.get(answers.size() - 1).statusCode() + " " + answers.get(answers.size() - 1).body()));
        for (HttpResponse<String> answer : answers) {
            if (answer.statusCode() == 503) {
                assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
                assertThat(JSON.readTree(answer.body()).get("error").asText()).isEqualTo("unavailable");
            } else {
                assertThat(answer.statusCode()).as("answer for %s: %s", jobId, answer.body()).isIn(200, 404, 503);
            }
        }
        return JSON.readTree(answers.get(answers.size() - 1).body());
    }

    private HttpResponse<String> get(AgentOutcomesService service, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(service.httpUrl() + path)).header("Authorization", AUTHORIZATION)
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
