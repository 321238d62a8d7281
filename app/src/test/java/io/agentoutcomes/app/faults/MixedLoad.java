package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The suite's load generator and its own tally: JSON in every agent dialect (seed 000 VAT envelopes, seed 003
 * flatagents, seed 004 review agents; successes, failures, in-progress), canonical Avro through the project's serde, and seed 001 {@code node_finished}
 * events (JSON flat and wrapped, and Avro) of several jobs; successes, skips, retryable failures (retried after the
 * backoff the scenario configures) and permanent ones. Every record has an explicit result id, a task of its own,
 * and an explicit timestamp in {@link #EVENT_HOUR}, advancing {@link #EVENT_STEP_MS} a record as a producer's clock would
 * (about twice as fast as real time at the scenarios' rates), so analytics windows are known.
 * {@link #clock} then sends one success per agent/model/provider (and one node event, for the workflow nodes'
 * aggregate) far later, which closes those windows.
 */
final class MixedLoad {
    /**
     * The hour the load's event times fall in: two hours ago. Recent on purpose: the brokers delete records whose
     * timestamps are older than the topics' retention (7 days) at their next retention check, read or not.
     */
    static final Instant EVENT_HOUR = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
    /**
     * Where the clock records are: past the end of {@link #EVENT_HOUR} plus the suite's analytics grace (40 min), and
     * less than the 2 hours after which the merge step forgets a 1-minute window, so every window of the load is
     * published closed before it is forgotten.
     */
    static final Instant CLOCK_TIME = EVENT_HOUR.plus(105, ChronoUnit.MINUTES);
    /**
     * How far event time advances per record: at the scenarios' 100 records a second, twice as fast as real time, so
     * the load spans minutes of 1-minute windows, and a restart's backlog spans less than the default grace (60 s).
     * (Event times out of order by up to 30 minutes, as this load had, only hold with a grace of as much: a tuned
     * setting, not the default.)
     */
    static final long EVENT_STEP_MS = 20;
    /** Windows starting before this are the load's; the clock's own stay open. */
    static final Instant LOAD_WINDOWS_END = EVENT_HOUR.plus(1, ChronoUnit.HOURS);

    private static final String[] AGENTS = {"summarizer", "planner", "extractor"};
    private static final String[][] MODELS = {{"gpt-4o-mini", "openai"}, {"claude-haiku", "anthropic"}};
    private static final String REVIEW_AGENT = "code-reviewer";
    private static final int KINDS = 12;

    private final String run;
    private final Topics topics;
    private final Serializer<AgentResult> results;
    private final Serializer<NodeFinished> nodes;
    private final Tally tally = new Tally();
    private int next;
    private int jobs;

    /** The names of the pipeline's input topics (the suite runs without a topic prefix). */
    record Topics(String agentResults, String agentResultsJson, String nodeFinished, String nodeFinishedJson) {
        static final Topics DEFAULT = new Topics(TopicNames.AGENT_RESULTS, TopicNames.AGENT_RESULTS_JSON,
                TopicNames.NODE_FINISHED, TopicNames.NODE_FINISHED_JSON);
    }

    MixedLoad(String run, String registryUrl) {
        this.run = run;
        this.topics = Topics.DEFAULT;
        Map<String, Object> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl);
        this.results = AvroSerde.specific(AgentResult.class).configured(serde, false).serializer();
        this.nodes = AvroSerde.specific(NodeFinished.class).configured(serde, false).serializer();
    }

    Tally tally() {
        return tally;
    }

    /** The next {@code count} records, tallied; every twelfth slot is a job of five nodes (six events). */
    synchronized List<ProducerRecord<byte[], byte[]>> next(int count) {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            int i = next++;
            long time = EVENT_HOUR.toEpochMilli() + Math.min(i * EVENT_STEP_MS, 55 * 60_000L);
            // each run of KINDS consecutive records is one agent and model, so every agent/model gets every kind
            String agent = AGENTS[(i / KINDS) % AGENTS.length];
            String[] model = MODELS[(i / (KINDS * AGENTS.length)) % MODELS.length];
            String task = "task-" + run + "-" + i;
            String resultId = "r-" + run + "-" + i;
            long input = 100 + i % 50;
            long output = 10 + i % 7;
            BigDecimal cost = new BigDecimal(i % 97 + 1).movePointLeft(6).add(new BigDecimal("0.0000001"));
            switch (i % KINDS) {
                case 0 -> batch.add(avro(time, task, resultId, agent, model, input, output, cost,
                        Success.newBuilder().setData("{\"n\":" + i + "}").build(), ResultType.SUCCESS, false));
                case 1 -> batch.add(avro(time, task, resultId, agent, model, input, output, cost, failure("llm-timeout"),
                        ResultType.RETRYABLE_FAILURE, true));
                case 2 -> batch.add(avro(time, task, resultId, agent, model, input, output, cost, failure("llm-refusal"),
                        ResultType.PERMANENT_FAILURE, false));
                case 3 -> batch.add(avro(time, task, resultId, agent, model, input, output, cost,
                        Skipped.newBuilder().setReason("nothing to do").build(), ResultType.SKIPPED, false));
                case 4 -> batch.add(vat(time, task, resultId, agent, model, input + output, cost,
                        "\"status\":\"success\",\"data\":{\"summary\":\"ok " + i + "\"}", ResultType.SUCCESS, false));
                case 5 -> batch.add(vat(time, task, resultId, agent, model, input + output, cost,
                        "\"status\":\"error\",\"error\":\"llm-rate-limit\"", ResultType.RETRYABLE_FAILURE, true));
                case 6 -> batch.add(flat(time, task, resultId, agent, model, input, output, cost,
                        "\"output\":{\"answer\":" + i + "},\"finish_reason\":\"stop\"", ResultType.SUCCESS, false));
                case 7 -> batch.add(flat(time, task, resultId, agent, model, input, output, cost,
                        "\"error\":{\"code\":\"server_error\",\"message\":\"upstream 503\",\"status_code\":503}",
                        ResultType.RETRYABLE_FAILURE, true));
                case 8 -> batch.add(review(time, task, resultId, input + output, cost,
                        "\"status\":\"success\",\"findings\":[{\"severity\":\"warning\",\"file\":\"a.ts\",\"line\":" + i
                                + ",\"message\":\"unused\",\"sourceAgent\":\"" + REVIEW_AGENT + "\"}]", ResultType.SUCCESS));
                case 9 -> batch.add(review(time, task, resultId, input + output, cost,
                        "\"status\":\"failure\",\"error\":\"linter crashed\",\"failureStage\":\"exec\"",
                        ResultType.PERMANENT_FAILURE));
                case 10 -> batch.add(vat(time, task, resultId, agent, model, input, cost,
                        "\"status\":\"in-progress\",\"metadata\":{\"step\":" + i % 5 + "}", ResultType.IN_PROGRESS, false));
                default -> batch.addAll(job(time));
            }
        }
        return batch;
    }

    /**
     * The next {@code count} records, tallied, all rate-limited failures of the load's agents and providers (Avro and
     * seed 000 {@code llm-rate-limit}, advertising no request window): a burst whose retries come due together, one
     * rate-limit backoff after each is classified, and that neither opens a circuit nor is paced.
     */
    synchronized List<ProducerRecord<byte[], byte[]>> rateLimitedFailures(int count) {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            int i = next++;
            long time = EVENT_HOUR.toEpochMilli() + Math.min(i * EVENT_STEP_MS, 55 * 60_000L);
            String agent = AGENTS[i % AGENTS.length];
            String[] model = MODELS[(i / AGENTS.length) % MODELS.length];
            String task = "task-" + run + "-" + i;
            String resultId = "r-" + run + "-" + i;
            long input = 100 + i % 50;
            long output = 10 + i % 7;
            BigDecimal cost = new BigDecimal(i % 97 + 1).movePointLeft(6).add(new BigDecimal("0.0000001"));
            batch.add(i % 2 == 0
                    ? avro(time, task, resultId, agent, model, input, output, cost, failure("llm-rate-limit"),
                            ResultType.RETRYABLE_FAILURE, true)
                    : vat(time, task, resultId, agent, model, input + output, cost,
                            "\"status\":\"error\",\"error\":\"llm-rate-limit\"", ResultType.RETRYABLE_FAILURE, true));
        }
        return batch;
    }

    /**
     * {@code count} rate-limited failures of one provider and model (openai, gpt-4o-mini, Avro) stamped {@code at} (the
     * wall clock, as an agent's producer stamps what it sends), each with OpenAI's request window: 30 000 a minute, none
     * left, resetting in {@code resetsInMs}. Their outcomes are tallied (retried), not their analytics: they fall in
     * no window of the load.
     */
    synchronized List<ProducerRecord<byte[], byte[]>> exhaustedWindowFailures(int count, long at, long resetsInMs) {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        RateLimitState rateLimit = RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow.newBuilder()
                .setName("requests").setResource("requests").setLimit(30_000L).setRemaining(0L).setResetsInMs(resetsInMs)
                .setHeader("x-ratelimit-remaining-requests: 0").build())).build();
        for (int n = 0; n < count; n++) {
            int i = next++;
            String task = "task-" + run + "-" + i;
            String resultId = "r-" + run + "-" + i;
            AgentResult result = AgentResult.newBuilder().setResultId(resultId).setAgentId(AGENTS[i % AGENTS.length])
                    .setTaskId(task).setExecution(ExecutionMetadata.newBuilder().setModel(MODELS[0][0]).setProvider(MODELS[0][1])
                            .setDurationMs(40L).build())
                    .setRateLimit(rateLimit).setOutcome(failure("llm-rate-limit")).build();
            tally.outcome(resultId, ResultType.RETRYABLE_FAILURE, true, false);
            batch.add(record(topics.agentResults(), task, at, results.serialize(topics.agentResults(), result)));
        }
        return batch;
    }

    /** One success per agent/model/provider at {@link #CLOCK_TIME}: moves stream time past the load's windows. */
    synchronized List<ProducerRecord<byte[], byte[]>> clock() {
        List<ProducerRecord<byte[], byte[]>> batch = new ArrayList<>();
        long time = CLOCK_TIME.toEpochMilli();
        int c = 0;
        for (String agent : AGENTS) {
            for (String[] model : MODELS) {
                String id = run + "-clock-" + c++;
                batch.add(avro(time, "task-" + id, "r-" + id, agent, model, 1, 1, new BigDecimal("0.000001"),
                        Success.newBuilder().build(), ResultType.SUCCESS, false));
            }
        }
        String id = run + "-clock-" + c;
        batch.add(review(time, "task-" + id, "r-" + id, 2, new BigDecimal("0.000001"), "\"status\":\"success\",\"findings\":[]",
                ResultType.SUCCESS));
        // and one for the workflow nodes' aggregate (agent _workflow)
        String job = "job-" + run + "-clock";
        tally.job(job);
        batch.add(node(time, NodeFinished.newBuilder().setJobId(job).setNodeId("n1").setStepIndex(1).setAttempt(0)
                .setResultType(StepResultType.SUCCESS).setTimestamp(time).build()));
        tallyNode(job, "n1", 0, StepResultType.SUCCESS, time);
        return batch;
    }

    private static Failure failure(String code) {
        return Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(code).build()).build();
    }

    private ProducerRecord<byte[], byte[]> avro(long time, String task, String resultId, String agent, String[] model,
                                                long input, long output, BigDecimal cost, SpecificRecord outcome,
                                                ResultType type, boolean retry) {
        AgentResult result = AgentResult.newBuilder().setResultId(resultId).setAgentId(agent).setTaskId(task)
                .setExecution(ExecutionMetadata.newBuilder().setModel(model[0]).setProvider(model[1]).setDurationMs(40L)
                        .setUsage(Usage.newBuilder().setInputTokens(input).setOutputTokens(output).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(cost.setScale(12))).setSource(CostSource.REPORTED).build())
                        .build())
                .setOutcome(outcome).build();
        tallyAgent(resultId, time, agent, model[0], model[1], type, input, output, input + output, cost, retry);
        return record(topics.agentResults(), task, time, results.serialize(topics.agentResults(), result));
    }

    /** Seed 000, bare form, agent from the header; tokensUsed is the total only. */
    private ProducerRecord<byte[], byte[]> vat(long time, String task, String resultId, String agent, String[] model,
                                               long tokens, BigDecimal cost, String result, ResultType type, boolean retry) {
        String json = "{\"resultId\":\"" + resultId + "\"," + result + ",\"execution\":{\"durationMs\":40,"
                + "\"model\":\"" + model[0] + "\",\"provider\":\"" + model[1] + "\",\"tokensUsed\":" + tokens
                + ",\"cost\":" + cost.toPlainString() + "}}";
        tallyAgent(resultId, time, agent, model[0], model[1], type, 0, 0, tokens, cost, retry);
        return json(topics.agentResultsJson(), task, time, json, "agent-id", agent);
    }

    /** Seed 003, agent from the header, model and provider from provider_data. */
    private ProducerRecord<byte[], byte[]> flat(long time, String task, String resultId, String agent, String[] model,
                                                long input, long output, BigDecimal cost, String body, ResultType type,
                                                boolean retry) {
        String json = "{\"result_id\":\"" + resultId + "\"," + body + ",\"usage\":{\"input_tokens\":" + input
                + ",\"output_tokens\":" + output + "},\"cost\":" + cost.toPlainString()
                + ",\"provider_data\":{\"provider\":\"" + model[1] + "\",\"model\":\"" + model[0]
                + "\",\"request_id\":\"req-" + resultId + "\"}}";
        tallyAgent(resultId, time, agent, model[0], model[1], type, input, output, input + output, cost, retry);
        return json(topics.agentResultsJson(), task, time, json, "agent-id", agent);
    }

    /** Seed 004: the agent id is a field; no model or provider ("unknown" in analytics). */
    private ProducerRecord<byte[], byte[]> review(long time, String task, String resultId, long tokens, BigDecimal cost,
                                                  String body, ResultType type) {
        String json = "{\"resultId\":\"" + resultId + "\",\"agentId\":\"" + REVIEW_AGENT + "\"," + body
                + ",\"metrics\":{\"durationMs\":40,\"filesProcessed\":1,\"tokensUsed\":" + tokens + ",\"estimatedCostUsd\":"
                + cost.toPlainString() + "}}";
        tallyAgent(resultId, time, REVIEW_AGENT, "unknown", "unknown", type, 0, 0, tokens, cost, false);
        return json(topics.agentResultsJson(), task, time, json);
    }

    /**
     * A job of five nodes, keyed by job id: n1 succeeds (flat JSON); n2 fails retryably then succeeds on attempt 1
     * (wrapped JSON); n3 fails permanently (Avro); n4 succeeds without result_type (seed 001 §7, Avro); n5 fails
     * compensatably (flat JSON).
     */
    private List<ProducerRecord<byte[], byte[]>> job(long time) {
        String job = "job-" + run + "-" + jobs++;
        tally.job(job);
        List<ProducerRecord<byte[], byte[]>> events = new ArrayList<>();
        events.add(json(topics.nodeFinishedJson(), job, time, "{\"job_id\":\"" + job + "\",\"node_id\":\"n1\","
                + "\"step_index\":1,\"attempt\":0,\"result_type\":\"success\",\"payload_results\":{\"n1\":1},"
                + "\"timestamp\":\"" + Instant.ofEpochMilli(time) + "\"}"));
        tallyNode(job, "n1", 0, StepResultType.SUCCESS, time);
        events.add(json(topics.nodeFinishedJson(), job, time + 1, "{\"type\":\"node_finished\",\"job_id\":\"" + job
                + "\",\"payload\":{\"node_id\":\"n2\",\"step_index\":2,\"attempt\":0,\"result_type\":\"retryable_failure\","
                + "\"reason\":\"tool timeout\",\"timestamp\":\"" + Instant.ofEpochMilli(time + 1) + "\"}}"));
        tallyNode(job, "n2", 0, StepResultType.RETRYABLE_FAILURE, time + 1);
        events.add(json(topics.nodeFinishedJson(), job, time + 2, "{\"type\":\"node_finished\",\"job_id\":\"" + job
                + "\",\"payload\":{\"node_id\":\"n2\",\"step_index\":2,\"attempt\":1,\"result_type\":\"success\","
                + "\"payload_results\":{\"n2\":2},\"timestamp\":\"" + Instant.ofEpochMilli(time + 2) + "\"}}"));
        tallyNode(job, "n2", 1, StepResultType.SUCCESS, time + 2);
        events.add(node(time + 3, NodeFinished.newBuilder().setJobId(job).setNodeId("n3").setStepIndex(3).setAttempt(0)
                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("bad input")
                .setTimestamp(Instant.ofEpochMilli(time + 3).toEpochMilli()).build()));
        tallyNode(job, "n3", 0, StepResultType.PERMANENT_FAILURE, time + 3);
        events.add(node(time + 4, NodeFinished.newBuilder().setJobId(job).setNodeId("n4").setStepIndex(4).setAttempt(0)
                .setPayloadResults("{\"n4\":4}").setTimestamp(Instant.ofEpochMilli(time + 4).toEpochMilli()).build()));
        tallyNode(job, "n4", 0, null, time + 4);
        events.add(json(topics.nodeFinishedJson(), job, time + 5, "{\"job_id\":\"" + job + "\",\"node_id\":\"n5\","
                + "\"step_index\":5,\"attempt\":0,\"result_type\":\"compensatable_failure\",\"reason\":\"half written\","
                + "\"timestamp\":\"" + Instant.ofEpochMilli(time + 5) + "\"}"));
        tallyNode(job, "n5", 0, StepResultType.COMPENSATABLE_FAILURE, time + 5);
        return events;
    }

    private ProducerRecord<byte[], byte[]> node(long time, NodeFinished event) {
        return record(topics.nodeFinished(), event.getJobId(), time, nodes.serialize(topics.nodeFinished(), event));
    }

    private void tallyAgent(String resultId, long time, String agent, String model, String provider, ResultType type,
                            long input, long output, long total, BigDecimal cost, boolean retry) {
        tally.outcome(resultId, type, retry, type == ResultType.PERMANENT_FAILURE);
        tally.analytics(time, agent, model, provider, type, input, output, total, cost, retry);
    }

    /**
     * A node's result id is {@code job/node/attempt/RESULT_TYPE/finish time in ms}: the runner's finish time tells
     * events apart where the attempt does not.
     */
    private void tallyNode(String job, String node, int attempt, StepResultType stepType, long finishedAt) {
        StepResultType type = stepType == null ? StepResultType.SUCCESS : stepType;
        ResultType resultType = ResultType.valueOf(type.name());
        String resultId = job + "/" + node + "/" + attempt + "/" + type.name() + "/" + finishedAt;
        tally.outcome(resultId, resultType, type == StepResultType.RETRYABLE_FAILURE,
                type == StepResultType.PERMANENT_FAILURE);
        // workflow nodes are aggregated too, under the agent _workflow (docs/analytics.md, "Figures")
        tally.analytics(finishedAt, "_workflow", "unknown", "unknown", resultType, 0, 0, 0, BigDecimal.ZERO,
                type == StepResultType.RETRYABLE_FAILURE);
        if (type == StepResultType.COMPENSATABLE_FAILURE) {
            tally.compensated.add(resultId);
        }
        if (type == StepResultType.SUCCESS) {
            tally.completedNode(job, node);
        }
    }

    static ProducerRecord<byte[], byte[]> json(String topic, String key, long time, String json, String... headers) {
        ProducerRecord<byte[], byte[]> record = record(topic, key, time, json.getBytes(StandardCharsets.UTF_8));
        for (int h = 0; h < headers.length; h += 2) {
            record.headers().add(headers[h], headers[h + 1].getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    static ProducerRecord<byte[], byte[]> record(String topic, String key, long time, byte[] value) {
        return new ProducerRecord<>(topic, null, time, key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
    }
}
