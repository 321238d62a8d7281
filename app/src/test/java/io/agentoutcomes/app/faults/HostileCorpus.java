package io.agentoutcomes.app.faults;

import static io.agentoutcomes.app.faults.HostileCase.task;

import io.agentoutcomes.app.faults.HostileCase.Classified;
import io.agentoutcomes.app.faults.HostileCase.DeadLettered;
import io.agentoutcomes.app.faults.HostileCase.Rejected;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.registry.RestSchemaRegistryClient;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;

/**
 * The hostile corpus: one named case per kind of bad (or merely awkward) input, each with where it must land. Add a
 * case by adding one line to {@link #cases}. Credential-like strings in it are listed in {@link #SECRETS}: none may
 * ever reach a topic, a log line or an HTTP answer.
 */
final class HostileCorpus {
    static final String SECRET_BEARER = "sk-hostile-9f8e7d6c5b4a3210SECRETbearer";
    static final String SECRET_API_KEY = "hostile-apikey-SECRET-5f4e3d2c1b";
    static final String SECRET_COOKIE = "hostile-session-SECRET-a1b2c3d4";
    /** In an accepted failure's error message, as an OpenAI SDK 401 quotes the key and the request's header. */
    static final String SECRET_IN_MESSAGE = "sk-proj-hostileMessage0a1b2c3d4e5f6SECRET";
    static final List<String> SECRETS = List.of(SECRET_BEARER, SECRET_API_KEY, SECRET_COOKIE, SECRET_IN_MESSAGE);

    private static final String AGENT_JSON = TopicNames.AGENT_RESULTS_JSON;
    private static final String NODE_JSON = TopicNames.NODE_FINISHED_JSON;
    private static final String CONTINUATION_JSON = TopicNames.CONTINUATION_EVENTS_JSON;
    private static final String AGENT_AVRO = TopicNames.AGENT_RESULTS;
    private static final String NODE_AVRO = TopicNames.NODE_FINISHED;
    private static final String[] JSON_REASONS = {"unparseable-json", "unknown-dialect", "missing-field", "wrong-type",
            "out-of-range"};

    private HostileCorpus() {
    }

    /** Every case; Avro ones encode through the service's registry at {@code registryUrl}. */
    static List<HostileCase> cases(String registryUrl, long time, Random random) throws IOException {
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl);
        byte[] validAvro = AvroSerde.specific(AgentResult.class).configured(serde, false).serializer().serialize(AGENT_AVRO,
                AgentResult.newBuilder().setResultId("template").setAgentId("hostile-agent").setTaskId("template")
                        .setOutcome(Success.newBuilder().setData("{\"long\":\"" + "x".repeat(200) + "\"}").build()).build());
        List<HostileCase> cases = new ArrayList<>(List.of(
                // bytes that are not JSON at all
                rejected("truncated-json", AGENT_JSON, "{\"status\":\"success\",\"data\":{\"a\":", "unparseable-json"),
                rejected("random-bytes-json", AGENT_JSON, randomBytes(random, 300), "unparseable-json"),
                rejected("non-utf8-json", AGENT_JSON, concat("{\"status\":\"success\",\"data\":\"".getBytes(StandardCharsets.UTF_8),
                        new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE}, "\"}".getBytes(StandardCharsets.UTF_8)),
                        "unparseable-json"),
                rejected("empty-value-json", AGENT_JSON, new byte[0], "unparseable-json"),
                HostileCase.of("null-value-json", agent(AGENT_JSON, task("null-value-json"), (byte[]) null),
                        Rejected.because("unparseable-json", "missing-field")),
                rejected("nan-cost", AGENT_JSON, "{\"content\":\"x\",\"cost\":NaN}", "unparseable-json", "out-of-range"),
                rejected("deep-json", AGENT_JSON, "{\"status\":\"success\",\"data\":" + "[".repeat(20_000) + "]".repeat(20_000) + "}",
                        "unparseable-json", "out-of-range"),
                rejected("unparseable-with-credentials", AGENT_JSON, "{\"error\":{\"code\":\"auth_error\"},\"provider_data\":"
                        + "{\"provider\":\"openai\",\"raw_headers\":{\"Authorization\":\"Bearer " + SECRET_BEARER
                        + "\",\"x-api-key\":\"" + SECRET_API_KEY + "\"}},\"cost\":", "unparseable-json"),
                rejected("duplicate-keys", AGENT_JSON, "{\"resultId\":\"hostile-duplicate-keys\",\"status\":\"success\","
                        + "\"status\":\"error\",\"error\":\"llm-timeout\"}", JSON_REASONS),
                // JSON of no known shape
                rejected("top-level-array", AGENT_JSON, "[1,2,3]", "unknown-dialect", "wrong-type", "unparseable-json"),
                rejected("top-level-string", AGENT_JSON, "\"success\"", "unknown-dialect", "wrong-type", "unparseable-json"),
                rejected("top-level-null", AGENT_JSON, "null", "unknown-dialect", "unparseable-json", "wrong-type"),
                rejected("empty-object", AGENT_JSON, "{}", "unknown-dialect"),
                rejected("unknown-status", AGENT_JSON, "{\"status\":\"exploded\",\"data\":{}}", "unknown-dialect"),
                HostileCase.of("unknown-dialect-header", withHeader(agent(AGENT_JSON, task("unknown-dialect-header"),
                        "{\"status\":\"success\"}"), "dialect", "cobol"), Rejected.because("unknown-dialect")),
                // fields missing
                HostileCase.of("missing-agent-id", MixedLoad.json(AGENT_JSON, task("missing-agent-id"), time,
                        "{\"status\":\"success\",\"data\":{}}"), Rejected.because("missing-field")),
                HostileCase.of("null-key-no-task-id", withHeader(MixedLoad.json(AGENT_JSON, null, time,
                        "{\"status\":\"success\",\"data\":{}}"), "agent-id", "hostile-agent"), Rejected.because("missing-field")),
                rejected("error-without-code", AGENT_JSON, "{\"status\":\"error\"}", "missing-field"),
                rejected("review-failure-without-error", AGENT_JSON, "{\"status\":\"failure\",\"agentId\":\"hostile-agent\"}",
                        "missing-field"),
                rejected("review-skip-without-reason", AGENT_JSON, "{\"status\":\"skipped\",\"agentId\":\"hostile-agent\"}",
                        "missing-field"),
                HostileCase.of("node-without-job", MixedLoad.json(NODE_JSON, null, time, "{\"node_id\":\"n1\"}"),
                        Rejected.because("missing-field")),
                // wrong types, impossible numbers, unknown enum values
                rejected("tokens-as-string", AGENT_JSON, "{\"content\":\"x\",\"usage\":{\"input_tokens\":\"ten\"}}", "wrong-type"),
                rejected("negative-tokens", AGENT_JSON, "{\"content\":\"x\",\"usage\":{\"input_tokens\":-1}}", "out-of-range"),
                rejected("fractional-tokens", AGENT_JSON, "{\"content\":\"x\",\"usage\":{\"output_tokens\":1.5}}",
                        "out-of-range", "wrong-type"),
                rejected("tokens-1e20", AGENT_JSON, "{\"content\":\"x\",\"usage\":{\"input_tokens\":1e20}}",
                        "out-of-range", "wrong-type"),
                rejected("tokens-1e10000000", AGENT_JSON, "{\"content\":\"x\",\"usage\":{\"output_tokens\":1e10000000}}",
                        "out-of-range", "wrong-type"),
                rejected("cost-1e10000000", AGENT_JSON, "{\"content\":\"x\",\"cost\":1e10000000}", "out-of-range"),
                rejected("cost-1e20", AGENT_JSON, "{\"content\":\"x\",\"cost\":1e20}", "out-of-range"),
                rejected("cost-parts-1e10000000", AGENT_JSON, "{\"content\":\"x\",\"cost\":{\"input\":1e10000000,\"output\":1}}",
                        "out-of-range"),
                rejected("negative-cost", AGENT_JSON, "{\"content\":\"x\",\"cost\":-0.01}", "out-of-range"),
                rejected("cost-as-string", AGENT_JSON, "{\"content\":\"x\",\"cost\":\"0.1\"}", "wrong-type"),
                rejected("confidence-above-one", AGENT_JSON, "{\"status\":\"success\",\"confidence\":1.5}", "out-of-range"),
                rejected("duration-1e10000000", AGENT_JSON, "{\"status\":\"success\",\"execution\":{\"durationMs\":1e10000000}}",
                        "out-of-range", "wrong-type"),
                rejected("unknown-severity", AGENT_JSON, "{\"status\":\"success\",\"agentId\":\"hostile-agent\",\"findings\":"
                        + "[{\"severity\":\"catastrophic\",\"message\":\"m\",\"sourceAgent\":\"hostile-agent\"}],"
                        + "\"metrics\":{\"durationMs\":1,\"filesProcessed\":1}}", "wrong-type", "out-of-range"),
                HostileCase.of("unknown-result-type", MixedLoad.json(NODE_JSON, "hostile-job-rt", time,
                        "{\"job_id\":\"hostile-job-rt\",\"node_id\":\"n1\",\"result_type\":\"exploded\"}"),
                        Rejected.because("wrong-type", "out-of-range")),
                HostileCase.of("unknown-event-type", MixedLoad.json(NODE_JSON, "hostile-job-et", time,
                        "{\"type\":\"node_started\",\"job_id\":\"hostile-job-et\",\"payload\":{\"node_id\":\"n1\"}}"),
                        Rejected.because("unknown-dialect", "wrong-type")),
                HostileCase.of("unknown-stop-reason", MixedLoad.json(CONTINUATION_JSON, "hostile-agent", time,
                        "{\"agentId\":\"hostile-agent\",\"step\":1,\"shouldContinue\":false,\"stopReason\":\"exploded\","
                                + "\"resolvedBy\":\"x\"}"), Rejected.because("wrong-type", "out-of-range")),
                HostileCase.of("step-as-string", MixedLoad.json(CONTINUATION_JSON, "hostile-agent", time,
                        "{\"agentId\":\"hostile-agent\",\"step\":\"two\",\"shouldContinue\":true,\"stopReason\":\"completed\","
                                + "\"resolvedBy\":\"x\"}"), Rejected.because("wrong-type")),
                // undecodable Avro
                HostileCase.of("avro-wrong-magic-byte", agent(AGENT_AVRO, task("avro-wrong-magic-byte"),
                        concat(new byte[] {1}, Arrays.copyOfRange(validAvro, 1, validAvro.length))),
                        Rejected.undecodable("io.agentoutcomes.avro.serde.UnknownMagicByteException")),
                HostileCase.of("avro-json-instead", agent(AGENT_AVRO, task("avro-json-instead"), "{\"status\":\"success\"}"),
                        Rejected.undecodable("io.agentoutcomes.avro.serde.UnknownMagicByteException")),
                HostileCase.of("avro-unknown-schema-id", agent(AGENT_AVRO, task("avro-unknown-schema-id"),
                        concat(new byte[] {0}, ByteBuffer.allocate(4).putInt(987_654).array(),
                                Arrays.copyOfRange(validAvro, 5, validAvro.length))),
                        Rejected.undecodable("io.agentoutcomes.avro.serde.UnknownSchemaIdException")),
                HostileCase.of("avro-truncated", agent(AGENT_AVRO, task("avro-truncated"),
                        Arrays.copyOf(validAvro, validAvro.length / 2)), Rejected.undecodable()),
                HostileCase.of("avro-random-after-header", agent(AGENT_AVRO, task("avro-random-after-header"),
                        concat(Arrays.copyOf(validAvro, 5), randomBytes(random, 120))),
                        Rejected.undecodable()),
                HostileCase.of("avro-header-only", agent(AGENT_AVRO, task("avro-header-only"), Arrays.copyOf(validAvro, 5)),
                        Rejected.undecodable()),
                HostileCase.of("avro-null-value", agent(NODE_AVRO, "hostile-job-null", (byte[]) null),
                        Rejected.undecodable()),
                // provider values that overflow or postpone a retry beyond reason
                HostileCase.of("retry-after-overflow", agent(AGENT_JSON, task("retry-after-overflow"),
                        "{\"result_id\":\"hostile-retry-after-overflow\",\"error\":{\"code\":\"rate_limit\"},"
                                + "\"rate_limit\":{\"limited\":true,\"retry_after\":9223372036854775}}"),
                        new DeadLettered(task("retry-after-overflow"), "delay-out-of-range")),
                HostileCase.of("retry-after-year-2312", agent(AGENT_JSON, task("retry-after-year-2312"),
                        "{\"result_id\":\"hostile-retry-after-year-2312\",\"error\":{\"code\":\"rate_limit\"},"
                                + "\"rate_limit\":{\"limited\":true,\"retry_after\":9000000000}}"),
                        new DeadLettered(task("retry-after-year-2312"), "delay-out-of-range")),
                HostileCase.of("window-reset-overflow", agent(AGENT_JSON, task("window-reset-overflow"),
                        "{\"result_id\":\"hostile-window-reset-overflow\",\"error\":{\"code\":\"rate_limit\"},"
                                + "\"rate_limit\":{\"limited\":true,\"windows\":[{\"name\":\"minute\",\"remaining\":0,"
                                + "\"resets_in\":9223372036854775}]}}"),
                        new DeadLettered(task("window-reset-overflow"), "delay-out-of-range")),
                // a time past what epoch milliseconds hold: out-of-range naming the field, not an overflow
                rejected("timestamp-year-999999999", AGENT_JSON, "{\"status\":\"success\",\"data\":{},\"execution\":"
                        + "{\"timestamp\":\"+999999999-12-31T23:59:59Z\"}}", "out-of-range"),
                rejected("timestamp-year-minus-999999999", AGENT_JSON, "{\"status\":\"success\",\"data\":{},\"execution\":"
                        + "{\"timestamp\":\"-999999999-01-01T00:00:00Z\"}}", "out-of-range"),
                // an accepted 401 whose message quotes the key: dead-lettered with the message scrubbed, the key nowhere
                HostileCase.of("credentials-in-error-message", agent(AGENT_JSON, task("credentials-in-error-message"),
                        "{\"result_id\":\"hostile-credentials-in-error-message\",\"error\":{\"code\":\"authentication_error\","
                                + "\"status_code\":401,\"message\":\"Error code: 401 - Incorrect API key provided: "
                                + SECRET_IN_MESSAGE + " (request headers: Authorization: Bearer " + SECRET_IN_MESSAGE + ")\"}}"),
                        new DeadLettered(task("credentials-in-error-message"),
                                "Incorrect API key provided: [redacted] (request headers: Authorization: [redacted]")),
                // awkward but valid: they must come out like any other
                HostileCase.of("credentials-in-raw-headers", agent(AGENT_JSON, task("credentials-in-raw-headers"),
                        "{\"result_id\":\"hostile-credentials-in-raw-headers\",\"content\":\"ok\",\"provider_data\":"
                                + "{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\",\"raw_headers\":{\"Authorization\":"
                                + "\"Bearer " + SECRET_BEARER + "\",\"X-Api-Key\":\"" + SECRET_API_KEY + "\",\"Set-Cookie\":"
                                + "\"session=" + SECRET_COOKIE + "\",\"x-ratelimit-remaining-requests\":\"9\"}}}"),
                        Classified.as(task("credentials-in-raw-headers"), 1, ResultType.SUCCESS)),
                HostileCase.of("null-key-avro", agent(AGENT_AVRO, null, AvroSerde.specific(AgentResult.class)
                        .configured(serde, false).serializer().serialize(AGENT_AVRO, AgentResult.newBuilder()
                                .setResultId("hostile-null-key-avro").setAgentId("hostile-agent")
                                .setTaskId(task("null-key-avro")).setOutcome(Success.newBuilder().build()).build())),
                        Classified.as(task("null-key-avro"), 1, ResultType.SUCCESS)),
                HostileCase.of("huge-headers", withHeader(agent(AGENT_JSON, task("huge-headers"),
                        "{\"result_id\":\"hostile-huge-headers\",\"status\":\"success\",\"data\":{}}"), "trace-baggage",
                        "b".repeat(300_000)), Rejected.because("too-large")),
                HostileCase.of("huge-json", agent(AGENT_JSON, task("huge-json"), "{\"result_id\":\"hostile-huge-json\","
                        + "\"status\":\"success\",\"data\":{\"blob\":\"" + "y".repeat(700_000) + "\"}}"),
                        Rejected.because("too-large")),
                avroUnknownEnum(registryUrl, time)));
        cases.add(nodesWithoutAttempt(time));
        cases.add(rekeyed(time));
        cases.add(bigPayloadJob(time));
        cases.add(SkewedClockCase.create(System.currentTimeMillis()));
        cases.addAll(OtlpHostileCases.cases(time, random));
        return cases;
    }

    /** Three distinct failures of one node, none saying its attempt: three outcomes, not one and two duplicates. */
    private static HostileCase nodesWithoutAttempt(long time) {
        String job = "hostile-job-no-attempt";
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (String reason : List.of("tool timeout", "tool unavailable", "tool crashed")) {
            records.add(MixedLoad.json(NODE_JSON, job, time, "{\"job_id\":\"" + job + "\",\"node_id\":\"n1\","
                    + "\"result_type\":\"retryable_failure\",\"reason\":\"" + reason + "\"}"));
        }
        return new HostileCase("node-failures-without-attempt", records,
                Classified.as(job + "/n1", 3, ResultType.RETRYABLE_FAILURE));
    }

    /**
     * Two failures of one task, the first keyed by its task id, the second by another key that lands on the other of
     * the suite's two partitions: attempts must still be counted 1, then 2.
     */
    private static HostileCase rekeyed(long time) {
        String task = task("rekeyed");
        String otherKey = "some-other-key";
        for (int n = 0; partition(otherKey) == partition(task); n++) {
            otherKey = "some-other-key-" + n;
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<String> keys = List.of(task, otherKey);
        for (int i = 0; i < keys.size(); i++) {
            records.add(withHeader(MixedLoad.json(AGENT_JSON, keys.get(i), time, "{\"result_id\":\"" + task + "-" + i
                    + "\",\"task_id\":\"" + task + "\",\"error\":{\"code\":\"timeout\"}}"), "agent-id", "hostile-agent"));
        }
        return new HostileCase("keyed-by-another-id", records,
                new Classified(task, 2, ResultType.RETRYABLE_FAILURE, List.of(1, 2), null, List.of()));
    }

    /** The partition Kafka's default partitioner picks for a key among the suite's two. */
    private static int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 2;
    }

    /** A job of 25 nodes with 60 KB of payload results each: its replay state is past 1 MB. */
    private static HostileCase bigPayloadJob(long time) {
        String job = "hostile-job-big";
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        for (int n = 1; n <= 25; n++) {
            String node = String.format("n%02d", n);
            nodes.add(node);
            records.add(MixedLoad.json(NODE_JSON, job, time + n, "{\"job_id\":\"" + job + "\",\"node_id\":\"" + node
                    + "\",\"step_index\":" + n + ",\"attempt\":0,\"result_type\":\"success\",\"payload_results\":{\"blob\":\""
                    + "p".repeat(60_000) + "\"}}"));
        }
        return new HostileCase("job-of-25-nodes-60kb-each", records,
                new Classified(job + "/n25", 1, ResultType.SUCCESS, List.of(), job, nodes));
    }

    /**
     * A node event written with a newer schema whose result type has a symbol the service does not know: Avro reads
     * the enum's default (PERMANENT_FAILURE), so the job fails and the event is dead-lettered.
     */
    private static HostileCase avroUnknownEnum(String registryUrl, long time) throws IOException {
        Schema schema = new Schema.Parser().parse(NodeFinished.getClassSchema().toString()
                .replace("\"COMPENSATABLE_FAILURE\"]", "\"COMPENSATABLE_FAILURE\",\"EXPLODED\"]"));
        int id = new RestSchemaRegistryClient(List.of(URI.create(registryUrl)), Optional.empty(), Duration.ofSeconds(10), 3,
                Duration.ofMillis(200)).register(NODE_AVRO + "-value", schema.toString());
        Schema stepType = schema.getField("resultType").schema().getTypes().get(1);
        GenericRecord event = new GenericRecordBuilder(schema).set("jobId", "hostile-job-enum").set("nodeId", "n1")
                .set("attempt", 0).set("resultType", new GenericData.EnumSymbol(stepType, "EXPLODED")).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(event, encoder);
        encoder.flush();
        return HostileCase.of("avro-unknown-enum-symbol", MixedLoad.record(NODE_AVRO, "hostile-job-enum", time, out.toByteArray()),
                new DeadLettered("hostile-job-enum/n1", null));
    }

    private static HostileCase rejected(String name, String topic, String json, String... reasons) {
        return rejected(name, topic, json.getBytes(StandardCharsets.UTF_8), reasons);
    }

    private static HostileCase rejected(String name, String topic, byte[] value, String... reasons) {
        ProducerRecord<byte[], byte[]> record = withHeader(agent(topic, task(name), value), "agent-id", "hostile-agent");
        return HostileCase.of(name, record, Rejected.because(reasons));
    }

    private static ProducerRecord<byte[], byte[]> agent(String topic, String key, String json) {
        return agent(topic, key, json.getBytes(StandardCharsets.UTF_8));
    }

    private static ProducerRecord<byte[], byte[]> agent(String topic, String key, byte[] value) {
        ProducerRecord<byte[], byte[]> record = MixedLoad.record(topic, key, MixedLoad.EVENT_HOUR.toEpochMilli(), value);
        if (topic.equals(AGENT_JSON) && record.headers().lastHeader("agent-id") == null) {
            record.headers().add("agent-id", "hostile-agent".getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    private static ProducerRecord<byte[], byte[]> withHeader(ProducerRecord<byte[], byte[]> record, String key, String value) {
        record.headers().remove(key);
        record.headers().add(key, value.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static byte[] randomBytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        bytes[0] = (byte) 0x9F;
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
