package io.agentoutcomes.topology;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.Severity;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.intake.BoundedDeserializer;
import io.agentoutcomes.topology.topic.Topics;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Input a hostile producer would send (issue 19 item 7), through the whole pipeline: every record out of bounds lands
 * on {@code rejected-input} with its reason, the next good record comes out, nothing of the bad one is counted, and
 * no credential from a header reaches an output.
 */
class HostileInputTest {
    private static final String GOOD = "{\"status\":\"success\",\"data\":{\"ok\":true}}";
    private static final String SECRET = "sk-hostile-0123456789abcdefSECRET";

    private final StageDriver pipeline = StageDriver.configured((topics, settings) -> AgentOutcomesTopology.build(topics,
            PipelineSettings.builder().analytics(new AnalyticsSettings(Duration.ofSeconds(1), Duration.ofSeconds(60), 1000,
                    true)).build(), settings),
            HostileInputTest::settings);

    private static Properties settings(Topics topics) {
        Properties props = new Properties();
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.rejectedInput.name());
        return props;
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void json(String key, String value, Headers headers) {
        pipeline.bytesInput(pipeline.topics.agentResultsJson.name()).pipeInput(StageDriver.textRecord(key, value, headers, T0));
    }

    private void avro(String key, AgentResult value, Headers headers) {
        pipeline.input(pipeline.topics.agentResults).pipeInput(new TestRecord<>(key, value, headers, T0));
    }

    private byte[] avroBytes(AgentResult value) {
        return pipeline.topics.agentResults.valueSerde().serializer().serialize(pipeline.topics.agentResults.name(), value);
    }

    private static AgentResult.Builder result(String id) {
        return AgentResult.newBuilder().setResultId(id).setAgentId("agent-1").setTaskId("task-" + id)
                .setOutcome(Success.newBuilder().build());
    }

    private List<TestRecord<byte[], byte[]>> rejected() {
        return pipeline.bytesOutput(pipeline.topics.rejectedInput.name()).readRecordsToList();
    }

    private List<TestRecord<String, ClassifiedOutcome>> outcomes() {
        return pipeline.output(pipeline.topics.outcomesClassified).readRecordsToList();
    }

    private static Map<String, String> text(Headers headers) {
        Map<String, String> all = new HashMap<>();
        for (Header header : headers) {
            all.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
        }
        return all;
    }

    private static String allText(Headers headers) {
        StringBuilder text = new StringBuilder();
        headers.forEach(h -> text.append(h.key()).append('=')
                .append(h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8)).append('\n'));
        return text.toString();
    }

    /** Exactly one record rejected, for the reason given, and the good record after it classified. */
    private Map<String, String> rejectedOnceThenTheNextComesOut(String goodTask) {
        List<TestRecord<byte[], byte[]>> rejected = rejected();
        assertThat(rejected).hasSize(1);
        assertThat(outcomes()).extracting(TestRecord::key).containsExactly(goodTask);
        Map<String, String> headers = text(rejected.get(0).headers());
        headers.put("(key bytes)", rejected.get(0).key() == null ? "null" : String.valueOf(rejected.get(0).key().length));
        return headers;
    }

    @Test
    void aJsonRecordKeyedWithHundredsOfKilobytesIsRejectedAsTooLargeWithoutItsKey() {
        json("k".repeat(350_000), GOOD, StageDriver.headers("agent-id", "a"));
        json("task-good", GOOD, StageDriver.headers("agent-id", "a"));

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers).containsEntry("rejected.reason", "too-large")
                .containsEntry("__streams.errors.message", "a key of 350000 bytes is longer than 1024")
                .containsEntry("rejected.key.dropped.bytes", "350000").containsEntry("(key bytes)", "null");
    }

    @Test
    void anAvroRecordKeyedWithHundredsOfKilobytesIsRefusedBeforeItIsDecoded() {
        avro("k".repeat(700_000), result("big-key").build(), StageDriver.headers());
        avro("task-good", result("good").setTaskId("task-good").build(), StageDriver.headers());

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers.get("__streams.errors.message"))
                .isEqualTo("too-large: a key of 700000 bytes on agent-results is longer than 1024");
    }

    @Test
    void headersOfHundredsOfKilobytesAreRejectedAsTooLargeOnJsonInput() {
        json("task-big", GOOD, StageDriver.headers("agent-id", "a", "baggage", "b".repeat(600_000)));
        json("task-good", GOOD, StageDriver.headers("agent-id", "a"));

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers).containsEntry("rejected.reason", "too-large")
                .containsEntry("__streams.errors.message", "headers of 600016 bytes are more than 65536");
        assertThat(headers.get("baggage")).hasSizeLessThan(1100).endsWith("…[truncated: 600000 bytes]");
    }

    @Test
    void headersOfHundredsOfKilobytesAreRefusedOnAvroInput() {
        avro("task-big", result("big").setTaskId("task-big").build(), StageDriver.headers("baggage", "b".repeat(600_000)));
        avro("task-good", result("good").setTaskId("task-good").build(), StageDriver.headers());

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers.get("__streams.errors.message"))
                .isEqualTo("too-large: headers of 600007 bytes on agent-results are more than 65536");
    }

    @Test
    void identitiesAndLabelsLongerThanAKilobyteAreRejectedAsTooLarge() {
        json("task-1", "{\"task_id\":\"" + "t".repeat(300_000) + "\",\"status\":\"success\",\"data\":1}",
                StageDriver.headers("agent-id", "a"));
        avro("task-2", result("2").setTaskId("task-2").setExecution(ExecutionMetadata.newBuilder()
                .setModel("m".repeat(400_000)).build()).build(), StageDriver.headers());
        json("task-good", GOOD, StageDriver.headers("agent-id", "a"));

        List<TestRecord<byte[], byte[]>> rejected = rejected();
        assertThat(rejected).extracting(r -> text(r.headers()).get("__streams.errors.message")).containsExactly(
                "taskId is 300000 characters long: longer than 1024",
                "too-large: execution.model is 400000 characters long: longer than 1024 (on agent-results)");
        assertThat(outcomes()).extracting(TestRecord::key).containsExactly("task-good");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "NaN confidence | confidence is NaN: must be between 0 and 1",
        "negative tokens | execution.usage.inputTokens is -5: must not be negative",
        "negative cost | execution.cost.total is -0.010000000000: must not be negative, and at most 30 digits (12 after the point)",
        "cost past the precision | execution.cost.total is 1000000000000000000.000000000000: must not be negative, and at most 30 digits (12 after the point)",
        "negative duration | execution.durationMs is -1: must not be negative",
        "attempt of the largest int | attempt is 2147483647: out of range (0 to 1000000)",
        "negative attempt | attempt is -1: out of range (0 to 1000000)",
        "retry count of the largest int | execution.retryCount is 2147483647: out of range (0 to 1000000)",
        "negative finding line | outcome.findings[0].line is -3: must not be negative",
        "time before 1970 | execution.timestamp is -1: out of range (epoch milliseconds from 1970 to the year 9999)",
    })
    void avroInputIsHeldToTheBoundsJsonInputGetsAndNothingOfItIsCounted(String what, String message) {
        Map<String, UnaryOperator<AgentResult.Builder>> cases = Map.of(
                "NaN confidence", b -> b.setConfidence(Double.NaN),
                "negative tokens", b -> b.setExecution(ExecutionMetadata.newBuilder()
                        .setUsage(Usage.newBuilder().setInputTokens(-5L).build()).build()),
                "negative cost", b -> b.setExecution(cost(new BigDecimal("-0.01"))),
                "cost past the precision", b -> b.setExecution(cost(BigDecimal.TEN.pow(18))),
                "negative duration", b -> b.setExecution(ExecutionMetadata.newBuilder().setDurationMs(-1L).build()),
                "attempt of the largest int", b -> b.setAttempt(Integer.MAX_VALUE),
                "negative attempt", b -> b.setAttempt(-1),
                "retry count of the largest int", b -> b.setExecution(ExecutionMetadata.newBuilder()
                        .setRetryCount(Integer.MAX_VALUE).build()),
                "negative finding line", b -> b.setOutcome(Success.newBuilder().setFindings(List.of(Finding.newBuilder()
                        .setSeverity(Severity.INFO).setFile("f").setLine(-3).setMessage("m").setSourceAgent("s").build()))
                        .build()),
                "time before 1970", b -> b.setExecution(ExecutionMetadata.newBuilder().setTimestamp(-1L).build()));
        // The bad record also carries a cost, which must not reach the analytics.
        AgentResult bad = cases.get(what).apply(result("bad").setTaskId("task-bad")
                .setExecution(cost(new BigDecimal("100")))).build();
        if (bad.getExecution() != null && bad.getExecution().getCost() == null) {
            bad.getExecution().setCost(cost(new BigDecimal("100")).getCost());
        }
        avro("task-bad", bad, StageDriver.headers());
        avro("task-good", result("good").setTaskId("task-good").setExecution(cost(new BigDecimal("0.5"))).build(),
                StageDriver.headers());
        pipeline.advance(Duration.ofSeconds(1));

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers).containsEntry("__streams.errors.message", "out-of-range: " + message + " (on agent-results)")
                .containsEntry("__streams.errors.exception", BoundedDeserializer.RefusedValueException.class.getName());
        List<AgentMetrics> minutes = pipeline.output(pipeline.topics.agentMetrics1m).readValuesToList();
        assertThat(minutes).isNotEmpty();
        assertThat(minutes.get(minutes.size() - 1).getCostTotal()).as("only the good record's cost")
                .isEqualByComparingTo("0.5");
    }

    private static ExecutionMetadata cost(BigDecimal total) {
        byte[] unscaled = total.setScale(Money.SCALE).unscaledValue().toByteArray();
        return ExecutionMetadata.newBuilder().setCost(Cost.newBuilder().setTotal(ByteBuffer.wrap(unscaled))
                .setSource(CostSource.REPORTED).build()).build();
    }

    @Test
    void anAttemptOfTheLargestIntIsRejectedOnJsonInputInsteadOfSchedulingANegativeAttempt() {
        json("task-1", "{\"status\":\"error\",\"error\":\"llm-timeout\"}",
                StageDriver.headers("agent-id", "a", "attempt", "2147483647"));
        json("task-good", GOOD, StageDriver.headers("agent-id", "a"));
        pipeline.advance(Duration.ofMinutes(1));

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers).containsEntry("rejected.reason", "out-of-range")
                .containsEntry("__streams.errors.message", "attempt is 2147483647: out of range (0 to 1000000)");
        assertThat(pipeline.output(pipeline.topics.retryReady).readValuesToList()).isEmpty();
    }

    @Test
    void anAvroArrayClaimingTwoToTheThirtyOneItemsIsRejectedAndTheNextRecordComesOut() {
        AgentResult without = result("r").setTaskId("t").build();
        AgentResult with = result("r").setTaskId("t").setOutcome(Success.newBuilder().setWarnings(List.of("w")).build()).build();
        byte[] a = avroBytes(without);
        byte[] b = avroBytes(with);
        int at = 0;
        while (a[at] == b[at]) {
            at++;
        }
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        bomb.write(b, 0, at);
        bomb.writeBytes(new byte[] {(byte) 0xEE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}); // zigzag varint of 2^31 - 9
        pipeline.bytesInput(pipeline.topics.agentResults.name()).pipeInput(StageDriver.bytesRecord("t", bomb.toByteArray(),
                StageDriver.headers(), T0));
        avro("task-good", result("good").setTaskId("task-good").build(), StageDriver.headers());

        Map<String, String> headers = rejectedOnceThenTheNextComesOut("task-good");
        assertThat(headers.get("__streams.errors.message")).contains("claims a block of items of 2147483639 with");
    }

    @Test
    void aJsonValueOfExactlyTheInputLimitComesOutClassified() {
        String head = "{\"status\":\"success\",\"data\":{\"blob\":\"";
        String tail = "\"}}";
        int limit = InputLimits.defaults().maxRecordBytes();
        json("task-limit", head + "y".repeat(limit - head.length() - tail.length()) + tail, StageDriver.headers("agent-id", "a"));

        assertThat(rejected()).isEmpty();
        assertThat(outcomes()).extracting(TestRecord::key).containsExactly("task-limit");
    }

    @Test
    void credentialsInTheHeadersOfAnAcceptedRecordReachNoOutput() {
        Headers jsonHeaders = StageDriver.headers("agent-id", "a", "Authorization", "Bearer " + SECRET,
                "X-Api-Key", SECRET, "Cookie", "session=" + SECRET, "x-debug", "token=" + SECRET + "; ok");
        json("task-json", "{\"status\":\"error\",\"error\":\"llm-timeout\"}", jsonHeaders);
        Headers avroHeaders = StageDriver.headers("authorization", "Basic " + SECRET, "x-api-key", SECRET,
                "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        avro("task-avro", result("avro").setTaskId("task-avro").setOutcome(Failure.newBuilder().setError(
                ErrorInfo.newBuilder().setCode("llm-refusal").build()).build())
                .setProviderData(ProviderData.newBuilder().setRawHeaders(Map.of("Authorization", "Bearer " + SECRET,
                        "x-ratelimit-remaining-requests", "9")).build()).build(), avroHeaders);
        pipeline.advance(Duration.ofMinutes(1));

        List<String> written = new ArrayList<>();
        pipeline.output(pipeline.topics.agentResults).readRecordsToList()
                .forEach(r -> written.add("agent-results " + allText(r.headers()) + r.value()));
        outcomes().forEach(r -> written.add("outcomes-classified " + allText(r.headers()) + r.value()));
        pipeline.output(pipeline.topics.retryReady).readRecordsToList()
                .forEach(r -> written.add("retry-ready " + allText(r.headers()) + r.value()));
        pipeline.output(pipeline.topics.deadLetter).readRecordsToList()
                .forEach(r -> written.add("dead-letter " + allText(r.headers()) + r.value()));
        assertThat(written).hasSize(5).noneMatch(record -> record.contains(SECRET));
        assertThat(written).filteredOn(r -> r.startsWith("retry-ready")).singleElement().asString()
                .contains("Authorization=[redacted]", "X-Api-Key=[redacted]", "Cookie=[redacted]", "x-debug=token=[redacted]; ok");
        assertThat(written).filteredOn(r -> r.startsWith("dead-letter")).singleElement().asString()
                .contains("authorization=[redacted]", "x-api-key=[redacted]",
                        "traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                        "\"rawHeaders\": {\"x-ratelimit-remaining-requests\": \"9\"}");
    }

    @Test
    void provenanceHeadersAreStampedByThePipelineNotTakenFromTheProducer() {
        Headers forged = StageDriver.headers("agent-id", "a", "origin-topic", "payments", "origin-partition", "7",
                "origin-offset", "123456");
        json("task-json", "{\"status\":\"error\",\"error\":\"llm-refusal\"}", forged);
        avro("task-avro", result("avro").setTaskId("task-avro").setOutcome(Failure.newBuilder().setError(
                ErrorInfo.newBuilder().setCode("llm-refusal").build()).build()).build(),
                StageDriver.headers("origin-topic", "payments", "origin-partition", "7", "origin-offset", "123456"));

        TestRecord<String, AgentResult> canonical = pipeline.output(pipeline.topics.agentResults).readRecord();
        assertThat(text(canonical.headers())).containsEntry("origin-topic", TopicNames.AGENT_RESULTS_JSON)
                .containsEntry("origin-partition", "0").containsEntry("origin-offset", "0");
        Map<String, Map<String, String>> dead = new HashMap<>();
        pipeline.output(pipeline.topics.deadLetter).readRecordsToList().forEach(r -> dead.put(r.key(), text(r.headers())));
        // Each stamp says where the pipeline read the record it wrote this one for: the canonical record ingestion wrote
        // at offset 0 of agent-results (which carries the JSON origin), the producer's Avro record at offset 1.
        assertThat(dead.get("task-json")).containsEntry("origin-topic", TopicNames.AGENT_RESULTS).containsEntry("origin-offset", "0");
        assertThat(dead.get("task-avro")).containsEntry("origin-topic", TopicNames.AGENT_RESULTS).containsEntry("origin-offset", "1");
        assertThat(dead.values()).allSatisfy(h -> assertThat(h).doesNotContainValue("payments").doesNotContainValue("123456"));
        assertThat(dead).hasSize(2);
    }

    @Test
    void tokenSumsSaturateAtTheLargestLongInsteadOfTurningNegative() {
        for (int i = 0; i < 3; i++) {
            json("task-" + i, "{\"content\":\"x\",\"usage\":{\"input_tokens\":9000000000000000000,\"output_tokens\":1}}",
                    StageDriver.headers("agent-id", "a"));
        }
        pipeline.advance(Duration.ofSeconds(1));

        List<AgentMetrics> minutes = pipeline.output(pipeline.topics.agentMetrics1m).readValuesToList();
        AgentMetrics last = minutes.get(minutes.size() - 1);
        assertThat(last.getCompletions()).containsEntry("SUCCESS", 3L);
        assertThat(last.getInputTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(last.getTotalTokens()).isEqualTo(Long.MAX_VALUE);
        assertThat(last.getOutputTokens()).isEqualTo(3L);
    }

    @Test
    void nodeEventsAreHeldToTheSameBounds() {
        NodeFinished event = NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setAttempt(Integer.MAX_VALUE).build();
        pipeline.input(pipeline.topics.nodeFinished).pipeInput("job-1", event, T0);

        assertThat(rejected()).extracting(r -> text(r.headers()).get("__streams.errors.message"))
                .containsExactly("out-of-range: attempt is 2147483647: out of range (0 to 1000000) (on node-finished)");
        assertThat(outcomes()).isEmpty();
    }
}
