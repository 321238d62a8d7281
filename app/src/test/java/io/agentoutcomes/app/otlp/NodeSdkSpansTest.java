package io.agentoutcomes.app.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Dialect;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.ingest.IngestTopology;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spans made by the OpenTelemetry JavaScript SDK and serialized by its own OTLP serializers
 * ({@code @opentelemetry/otlp-transformer}, in interop/otlp), both encodings, through the ingest stage: an independent
 * implementation of the encodings the Java SDK's tests use (topology's {@code OtlpSpansTest}).
 */
class NodeSdkSpansTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @TempDir
    Path workDir;

    @Test
    void theJavaScriptSdksSpansInEitherEncodingBecomeTheSameExactResults() throws Exception {
        Path interopDir = Path.of(System.getProperty("otlp.interop.dir", "../interop/otlp")).toAbsolutePath();
        Process node = new ProcessBuilder("node", "spans.mjs", workDir.toString()).directory(interopDir.toFile())
                .redirectError(workDir.resolve("stderr.txt").toFile()).start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(120, TimeUnit.SECONDS)).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node exit code; stderr: %s", Files.readString(workDir.resolve("stderr.txt"))).isZero();
        JsonNode ids = JSON.readTree(output);
        String trace = ids.get(0).get("traceId").asText();
        String chat = ids.get(0).get("spanId").asText();
        String limited = ids.get(1).get("spanId").asText();
        String agent = ids.get(2).get("spanId").asText();
        String task = trace + "/" + agent;
        long start = T0.toEpochMilli();
        List<AgentResult> expected = List.of(
                result(trace + "/" + chat, "node-support-bot", task).setExecution(ExecutionMetadata.newBuilder()
                        .setProvider("openai").setModel("gpt-4o-mini").setTimestamp(start + 10).setDurationMs(800L)
                        .setUsage(Usage.newBuilder().setInputTokens(1500L).setOutputTokens(120L).setCacheReadTokens(500L)
                                .build()).build()).build(),
                result(trace + "/" + limited, "node-support-bot", task).setExecution(ExecutionMetadata.newBuilder()
                        .setProvider("openai").setModel("gpt-4o-mini").setTimestamp(start + 900).setDurationMs(50L).build())
                        .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("429").setType("429")
                                .setStatusCode(429).setMessage("Rate limit reached").build()).build()).build(),
                result(trace + "/" + agent, "node-support-bot", task).setExecution(ExecutionMetadata.newBuilder()
                        .setProvider("openai").setTimestamp(start).setDurationMs(1000L).build()).build());

        for (String file : List.of("spans.pb", "spans.json")) {
            assertThat(ingest(Files.readAllBytes(workDir.resolve(file)))).as(file).isEqualTo(expected);
        }
    }

    private static AgentResult.Builder result(String resultId, String agent, String task) {
        return AgentResult.newBuilder().setResultId(resultId).setAgentId(agent).setTaskId(task).setAttempt(0)
                .setDialect(Dialect.OTLP).setRecordTimestamp(T0.toEpochMilli()).setOutcome(Success.newBuilder().build());
    }

    /** The canonical results the ingest stage makes of one request. */
    private static List<AgentResult> ingest(byte[] request) {
        Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://node-" + UUID.randomUUID()),
                RetryTiers.defaults().names());
        StreamsBuilder builder = new StreamsBuilder();
        IngestTopology.buildOtlp(builder, topics, InputLimits.defaults());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "node-sdk-spans");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props, T0)) {
            driver.createInputTopic(topics.otlpSpans.name(), new ByteArraySerializer(), new ByteArraySerializer())
                    .pipeInput(null, request, T0);
            TestOutputTopic<String, AgentResult> results = driver.createOutputTopic(topics.agentResults.name(),
                    topics.agentResults.keySerde().deserializer(), topics.agentResults.valueSerde().deserializer());
            return results.readValuesToList();
        }
    }
}
