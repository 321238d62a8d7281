package io.agentoutcomes.bench;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.ingest.AgentResultNormalizer;
import io.agentoutcomes.topology.ingest.RecordContext;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The records every suite publishes: agent results of five agents and three models, one in ten a failure the default
 * policy stops at once ({@code llm-refusal}), the rest successes with usage, cost and duration; task ids cycle over
 * a given number of distinct tasks, result ids never repeat. As Avro (about 105 bytes, the records of issue 12) or as
 * JSON in each input dialect, carrying the same facts.
 */
final class Workload {
    /**
     * The input format of a run: Avro to {@code agent-results}, JSON of one dialect to {@code agent-results-json}, or
     * OTLP spans in either encoding to {@code otlp_spans}.
     */
    enum Input {
        AVRO("avro"), JSON_VAT("json-vat"), JSON_FLATAGENTS("json-flatagents"), JSON_REVIEW("json-review"),
        OTLP_PROTO("otlp-proto"), OTLP_JSON("otlp-json");

        final String label;

        Input(String label) {
            this.label = label;
        }

        /** JSON of one of the agent-result dialects. */
        boolean json() {
            return this == JSON_VAT || this == JSON_FLATAGENTS || this == JSON_REVIEW;
        }

        boolean otlp() {
            return this == OTLP_PROTO || this == OTLP_JSON;
        }

        /** Normalized by the pipeline into its own {@code agent-results} (every input but Avro). */
        boolean normalized() {
            return this != AVRO;
        }

        /** The topic this input is published to under {@code prefix}. */
        String topic(String prefix) {
            return prefix + (otlp() ? TopicNames.OTLP_SPANS : json() ? TopicNames.AGENT_RESULTS_JSON : TopicNames.AGENT_RESULTS);
        }

        static Input of(String label) {
            for (Input input : values()) {
                if (input.label.equalsIgnoreCase(label) || input.name().equalsIgnoreCase(label)) {
                    return input;
                }
            }
            throw new IllegalArgumentException("unknown input '" + label + "': one of avro, json-vat, json-flatagents, json-review, "
                    + "otlp-proto, otlp-json");
        }

        @Override
        public String toString() {
            return label;
        }
    }

    private static final String[] AGENTS = {"summarizer", "reviewer", "planner", "coder", "tester"};
    private static final String[] MODELS = {"gpt-4o-mini", "claude-haiku", "llama-4-scout"};
    private static final BigDecimal COST = new BigDecimal("0.000120000000");

    private Workload() {
    }

    static boolean failure(long i) {
        return i % 10 == 0;
    }

    static String taskId(long i, long tasks) {
        return "task-" + (i % tasks);
    }

    static AgentResult avro(long i, long tasks) {
        return AgentResult.newBuilder().setResultId("r-" + i).setAgentId(AGENTS[(int) (i % AGENTS.length)])
                .setTaskId(taskId(i, tasks))
                .setExecution(ExecutionMetadata.newBuilder().setModel(MODELS[(int) (i % MODELS.length)])
                        .setProvider("openai").setDurationMs(100L + i % 900)
                        .setUsage(Usage.newBuilder().setInputTokens(500L).setOutputTokens(80L).setCacheReadTokens(100L).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(COST)).setSource(CostSource.REPORTED).build()).build())
                .setOutcome(failure(i) ? Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(ErrorCode.LLM_REFUSAL.value()).build()).build()
                        : Success.newBuilder().build())
                .build();
    }

    /** Record {@code i} as JSON in the input's dialect. */
    static byte[] json(Input input, long i, long tasks) {
        String agent = AGENTS[(int) (i % AGENTS.length)];
        String model = MODELS[(int) (i % MODELS.length)];
        String task = taskId(i, tasks);
        long duration = 100L + i % 900;
        String ids = "\"resultId\":\"r-" + i + "\",\"agentId\":\"" + agent + "\",\"taskId\":\"" + task + "\"";
        String json = switch (input) {
            // VAT envelopes carry no agent id (an agentId field would make it a review result's shape): it comes as a header
            case JSON_VAT -> "{\"resultId\":\"r-" + i + "\",\"taskId\":\"" + task + "\"" + (failure(i) ? ",\"status\":\"error\",\"error\":\"" + ErrorCode.LLM_REFUSAL.value() + "\""
                    : ",\"status\":\"success\",\"data\":{\"summary\":\"ok\"}")
                    + ",\"execution\":{\"durationMs\":" + duration + ",\"model\":\"" + model
                    + "\",\"provider\":\"openai\",\"tokensUsed\":580,\"cost\":0.00012}}";
            case JSON_FLATAGENTS -> "{" + ids + (failure(i) ? ",\"error\":{\"code\":\"" + ErrorCode.LLM_REFUSAL.value() + "\",\"message\":\"refused\"}"
                    : ",\"output\":{\"summary\":\"ok\"},\"finish_reason\":\"stop\"")
                    + ",\"usage\":{\"input_tokens\":500,\"output_tokens\":80,\"cache_read_tokens\":100},\"cost\":0.00012"
                    + ",\"provider_data\":{\"provider\":\"openai\",\"model\":\"" + model + "\"}}";
            case JSON_REVIEW -> "{" + ids + (failure(i) ? ",\"status\":\"failure\",\"error\":\"linter crashed\",\"failureStage\":\"exec\""
                    : ",\"status\":\"success\",\"findings\":[{\"severity\":\"warning\",\"file\":\"a.py\",\"line\":3,"
                            + "\"message\":\"unused import\",\"sourceAgent\":\"" + agent + "\"}]")
                    + ",\"metrics\":{\"durationMs\":" + duration + ",\"filesProcessed\":3,\"tokensUsed\":580,"
                    + "\"estimatedCostUsd\":0.00012}}";
            case AVRO, OTLP_PROTO, OTLP_JSON -> throw new IllegalArgumentException(input + " input is not a JSON dialect");
        };
        return json.getBytes(StandardCharsets.UTF_8);
    }

    /** The headers of record {@code i} as JSON: a VAT envelope's agent id. */
    static RecordHeaders headers(Input input, long i) {
        RecordHeaders headers = new RecordHeaders();
        if (input == Input.JSON_VAT) {
            headers.add(HeaderNames.AGENT_ID, AGENTS[(int) (i % AGENTS.length)].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    /** Fails unless record {@code i} of this JSON dialect normalizes (a rejected workload would measure the wrong path). */
    static AgentResult checkNormalizes(Input input, long i) {
        return AgentResultNormalizer.normalize(json(input, i, 1000), new RecordContext(taskId(i, 1000), headers(input, i),
                TopicNames.AGENT_RESULTS_JSON, 0, i, Instant.now()));
    }

    /** Publishes {@code records} records of the input to {@code topic}, keyed by task id; returns the seconds it took. */
    static double produce(String bootstrap, String registryUrl, String topic, Input input, long records, long tasks) {
        if (input.json()) {
            for (long i = 0; i < 10; i++) {
                if (checkNormalizes(input, i).getDialect().name().equals("NATIVE")) {
                    throw new IllegalStateException("not normalized from JSON");
                }
            }
        }
        Map<String, Object> config = new HashMap<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.LINGER_MS_CONFIG, 10, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.ACKS_CONFIG, "all"));
        Serializer<AgentResult> avro = AvroSerde.specific(AgentResult.class)
                .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl), false).serializer();
        AtomicReference<Exception> failed = new AtomicReference<>();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long i = 0; i < records; i++) {
                byte[] key = taskId(i, tasks).getBytes(StandardCharsets.UTF_8);
                byte[] value = input.otlp() ? OtlpWorkload.request(i, taskId(i, tasks), failure(i), input == Input.OTLP_JSON,
                        AGENTS[(int) (i % AGENTS.length)], MODELS[(int) (i % MODELS.length)], System.currentTimeMillis())
                        : input.json() ? json(input, i, tasks) : avro.serialize(topic, avro(i, tasks));
                producer.send(new ProducerRecord<>(topic, null, key, value, headers(input, i)), (metadata, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("could not publish the workload to " + topic + ": " + failed.get(), failed.get());
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
