package io.agentoutcomes.app.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.app.kafka.TopicProvisioner;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.client.testing.TestBroker;
import io.agentoutcomes.topology.topic.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two independent npm clients of the Schema Registry ({@code @kafkajs/confluent-schema-registry} and
 * {@code @confluentinc/schemaregistry}, in {@code interop/schema-registry}) against the embedded registry on a real
 * broker: they register, encode and decode; each reads the project serde's bytes and the project reads theirs; all
 * three encodings are the same bytes.
 */
class NpmClientsInteropTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = "interop-node-finished";

    @RegisterExtension
    static final TestBroker kafka = new TestBroker();
    private static KafkaSchemaStore store;
    private static SchemaRegistryServer registry;

    @TempDir
    Path workDir;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> clients = Map.of("bootstrap.servers", kafka.bootstrapServers());
        TopicProvisioner.ensure(clients, List.of(new TopicProvisioner.TopicSpec("_schemas", 1, Topics.Cleanup.COMPACT)), (short) 1);
        store = new KafkaSchemaStore("_schemas", clients);
        registry = new SchemaRegistryServer(store, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        registry.close();
        store.close();
    }

    @Test
    void npmClientsAndTheProjectSerdeWriteTheSameBytesAndReadEachOther() throws Exception {
        NodeFinished record = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1")
                .setPayloadResults("{\"n1\":{\"ok\":true}}").setTraceSpanId("span-2").setParentSpanId("span-1")
                .setStepIndex(3).setDurationMs(250L).setState("{\"cursor\":\"n1\"}").setAttempt(1)
                .setTimestamp(Instant.ofEpochMilli(1_767_225_600_000L).toEpochMilli()).setResultType(StepResultType.RETRYABLE_FAILURE)
                .setReason("upstream timeout").build();
        ObjectNode recordJson = JSON.createObjectNode().put("jobId", "job-1").put("nodeId", "n1")
                .put("payloadResults", "{\"n1\":{\"ok\":true}}").put("traceSpanId", "span-2").put("parentSpanId", "span-1")
                .put("stepIndex", 3).put("durationMs", 250).put("state", "{\"cursor\":\"n1\"}").put("attempt", 1)
                .put("timestamp", 1_767_225_600_000L).put("resultType", "RETRYABLE_FAILURE").put("reason", "upstream timeout");
        AvroSerde<NodeFinished> serde = AvroSerde.specific(NodeFinished.class)
                .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registry.url()), false);
        byte[] projectBytes = serde.serializer().serialize(TOPIC, record);
        int projectId = ByteBuffer.wrap(projectBytes, 1, 4).getInt();

        JsonNode answer = runNpmClients(JSON.createObjectNode().put("topic", TOPIC)
                .put("schema", NodeFinished.getClassSchema().toString())
                .put("projectBytes", HexFormat.of().formatHex(projectBytes))
                .set("record", recordJson));

        for (String client : List.of("kafkajs", "confluent")) {
            JsonNode result = answer.get(client);
            assertThat(result.get("id").asInt()).as(client + " schema id").isEqualTo(projectId);
            assertThat(result.get("bytes").asText()).as(client + " encoding").isEqualTo(HexFormat.of().formatHex(projectBytes));
            assertThat(result.get("decoded")).as(client + " decoding of the project's bytes").isEqualTo(recordJson);
            byte[] theirBytes = HexFormat.of().parseHex(result.get("bytes").asText());
            assertThat(serde.deserializer().deserialize(TOPIC, theirBytes)).as("project decoding " + client).isEqualTo(record);
        }
        assertThat(store.state().versions(TOPIC + "-value")).containsExactly(1);
    }

    private JsonNode runNpmClients(JsonNode request) throws Exception {
        Path requestFile = workDir.resolve("request.json");
        Files.writeString(requestFile, request.toString());
        Path interopDir = Path.of(System.getProperty("interop.dir", "../interop/schema-registry")).toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder("node", "interop.mjs", requestFile.toString())
                .directory(interopDir.toFile())
                .redirectError(workDir.resolve("stderr.txt").toFile());
        builder.environment().put("REGISTRY_URL", registry.url());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(process.exitValue()).as("node exit code; stderr: %s", Files.readString(workDir.resolve("stderr.txt")))
                .isZero();
        return JSON.readTree(output);
    }
}
