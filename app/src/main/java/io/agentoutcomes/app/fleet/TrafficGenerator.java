package io.agentoutcomes.app.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.ContinuationDecision;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.ContinuationEvaluation;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.client.JsonRecord;
import io.agentoutcomes.client.NodeEventBuilder;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.ResultBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * What a real fleet publishes, drawn from a seeded random source: every seed dialect as JSON (seed 000 envelopes,
 * seed 003 flatagents results, seed 004 review results, seed 001 node events flat and wrapped, seed 002 continuation
 * events) and canonical Avro; successes and every kind of error (rate limits with {@code retry_after} and provider
 * headers, exhausted daily windows, timeouts, unavailable providers, refusals, invalid output, skipped runs, review
 * failures with partial findings); several providers and models with realistic tokens, cache reads and writes, and
 * costs; workflow jobs whose nodes succeed, fail retryably, permanently, compensatably, or say no result type.
 * Counts what it sent per topic. Not thread-safe: one thread draws the first attempts.
 */
final class TrafficGenerator {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The kinds of first attempt, with their weights out of 100. */
    enum Kind {
        AVRO_SUCCESS(14), AVRO_TIMEOUT(8), AVRO_RATE_LIMIT(6), FLAT_SUCCESS(10), FLAT_RATE_LIMIT(6), FLAT_DAILY_LIMIT(3),
        FLAT_SERVER_ERROR(4), VAT_SUCCESS(9), VAT_REFUSAL(3), VAT_INVALID_OUTPUT(3), VAT_IN_PROGRESS(3),
        REVIEW_SUCCESS(5), REVIEW_FAILURE(3), REVIEW_SKIPPED(3), JOB(12), CONTINUATION(8);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    private final OutcomePublisher publisher;
    private final Random random;
    private final String run;
    private final Map<String, AtomicLong> sentByTopic = new ConcurrentHashMap<>();
    private final Map<Kind, AtomicLong> sentByKind = new ConcurrentHashMap<>();
    private final List<Future<RecordMetadata>> inFlight = new ArrayList<>();
    private final AtomicLong failures = new AtomicLong();
    private final Map<String, Long> sentTokens = new java.util.TreeMap<>();
    private final Map<String, BigDecimal> sentCost = new java.util.TreeMap<>();
    private long next;

    TrafficGenerator(OutcomePublisher publisher, long seed, String run) {
        this.publisher = publisher;
        this.random = new Random(seed);
        this.run = run;
    }

    /** Publishes the first attempt of one more task, job or loop step. */
    void next() {
        long n = next++;
        int pick = random.nextInt(100);
        Kind kind = Kind.JOB;
        for (Kind k : Kind.values()) {
            if (pick < k.weight) {
                kind = k;
                break;
            }
            pick -= k.weight;
        }
        sentByKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        String task = run + "-t" + n;
        String agent = Catalog.AGENTS.get(random.nextInt(Catalog.AGENTS.size()));
        Catalog.Model model = Catalog.MODELS.get(random.nextInt(Catalog.MODELS.size()));
        Catalog.Tokens tokens = Catalog.tokens(random);
        switch (kind) {
            case AVRO_SUCCESS -> send(avro(agent, task, model, tokens).confidence(0.8 + random.nextInt(20) / 100.0)
                    .success("{\"summary\":\"done " + n + "\"}"));
            case AVRO_TIMEOUT -> send(avro(agent, task, model, tokens).error(ErrorInfo.newBuilder().setCode(ErrorCode.LLM_TIMEOUT.value())
                    .setType("TimeoutError").setMessage("no response within 30 s").setStatusCode(504).build()));
            case AVRO_RATE_LIMIT -> send(avro(agent, task, model, tokens)
                    .provider(model.provider(), model.name(), "req-" + task, Map.of("retry-after", "1",
                            "x-ratelimit-remaining-requests", "0"))
                    .rateLimit(true, Duration.ofSeconds(1), ResultBuilder.window("requests_per_minute", "requests", 0, 500,
                            Duration.ofSeconds(2)))
                    .error(ErrorInfo.newBuilder().setCode(ErrorCode.LLM_RATE_LIMIT.value()).setType("RateLimitError")
                            .setMessage("429 Too Many Requests").setStatusCode(429).build()));
            case FLAT_SUCCESS -> send(flat(agent, task, model, tokens).put("finish_reason", "stop")
                    .set("output", JSON.createObjectNode().put("answer", "result " + n)), agent, task, "flatagents");
            case FLAT_RATE_LIMIT -> {
                ObjectNode flat = flat(agent, task, model, tokens);
                flat.putObject("error").put("code", "rate_limit").put("type", "RateLimitError")
                        .put("message", "Rate limit reached for requests").put("status_code", 429).put("retryable", true);
                ObjectNode limit = flat.putObject("rate_limit").put("limited", true).put("retry_after", 1);
                limit.putArray("windows").addObject().put("name", "requests_per_minute").put("resource", "requests")
                        .put("remaining", 0).put("limit", 500).put("resets_in", 2);
                providerData(flat, model, task, Map.of("retry-after", "1", "x-ratelimit-limit-requests", "500",
                        "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "2s"));
                send(flat, agent, task, "flatagents");
            }
            case FLAT_DAILY_LIMIT -> {
                ObjectNode flat = flat(agent, task, model, tokens);
                flat.putObject("error").put("code", "rate_limit").put("message", "daily token quota exhausted")
                        .put("status_code", 429);
                flat.putObject("rate_limit").put("limited", true).putArray("windows").addObject()
                        .put("name", "tokens_per_day").put("resource", "tokens").put("remaining", 0)
                        .put("limit", 1_000_000).put("resets_in", 43_200);
                providerData(flat, model, task, Map.of("x-ratelimit-remaining-tokens-day", "0"));
                send(flat, agent, task, "flatagents");
            }
            case FLAT_SERVER_ERROR -> {
                ObjectNode flat = flat(agent, task, model, tokens);
                flat.putObject("error").put("code", "server_error").put("message", "upstream 503").put("status_code", 503);
                send(flat, agent, task, null);
            }
            case VAT_SUCCESS -> {
                ObjectNode envelope = vat(model, tokens, "success").put("confidence", 0.7 + random.nextInt(30) / 100.0);
                envelope.putObject("data").put("category", "billing").put("n", n);
                send(random.nextBoolean() ? envelope : JSON.createObjectNode().set("result", envelope), agent, task, null);
            }
            case VAT_REFUSAL -> send(vat(model, tokens, "error").put("error", ErrorCode.LLM_REFUSAL.value()), agent, task, "vat-envelope");
            case VAT_INVALID_OUTPUT -> send(vat(model, tokens, "error").put("error", ErrorCode.LLM_INVALID_OUTPUT.value()), agent, task, null);
            case VAT_IN_PROGRESS -> {
                ObjectNode result = vat(model, tokens, "in-progress");
                result.putObject("metadata").put("factorsCollected", 2).put("requiredFactors", 4);
                ObjectNode conversational = JSON.createObjectNode().put("reply", "Which account is this about?");
                conversational.putObject("sessionState").put("turn", 2);
                send(conversational.set("result", result), agent, task, null);
            }
            case REVIEW_SUCCESS -> review(task, tokens, "success");
            case REVIEW_FAILURE -> review(task, tokens, "failure");
            case REVIEW_SKIPPED -> review(task, tokens, "skipped");
            case JOB -> job(run + "-job" + n);
            case CONTINUATION -> continuation(agent, n);
        }
    }

    private ResultBuilder avro(String agent, String task, Catalog.Model model, Catalog.Tokens tokens) {
        BigDecimal[] cost = Catalog.cost(model, tokens);
        tally(model.name(), tokens, Catalog.total(cost));
        return ResultBuilder.of(agent, task).model(model.provider(), model.name())
                .duration(Duration.ofMillis(300 + random.nextInt(8_000)))
                .usage(tokens.reportedInput(model), tokens.output(), tokens.cacheRead(), tokens.cacheWrite())
                .cost(cost[0], cost[1], cost[2], cost[3]);
    }

    /** Seed 003 flatagents: usage with cache reads and writes, a cost breakdown, provider data. */
    private ObjectNode flat(String agent, String task, Catalog.Model model, Catalog.Tokens tokens) {
        ObjectNode flat = JSON.createObjectNode().put("agent_id", agent).put("task_id", task).put("result_id", task + "/0");
        flat.putObject("usage").put("input_tokens", tokens.reportedInput(model)).put("output_tokens", tokens.output())
                .put("total_tokens", tokens.total()).put("cache_read_tokens", tokens.cacheRead())
                .put("cache_write_tokens", tokens.cacheWrite()).put("api_calls", 1);
        BigDecimal[] cost = Catalog.cost(model, tokens);
        tally(model.name(), tokens, Catalog.total(cost));
        flat.putObject("cost").put("input", cost[0]).put("output", cost[1]).put("cache_read", cost[2])
                .put("cache_write", cost[3]).put("total", Catalog.total(cost));
        providerData(flat, model, task, Map.of("x-request-id", "req-" + task));
        return flat;
    }

    private static void providerData(ObjectNode flat, Catalog.Model model, String task, Map<String, String> headers) {
        ObjectNode data = flat.putObject("provider_data").put("provider", model.provider()).put("model", model.name())
                .put("request_id", "req-" + task);
        ObjectNode raw = data.putObject("raw_headers");
        headers.forEach(raw::put);
    }

    /** Seed 000 envelope with its execution metadata (tokensUsed and a reported cost). */
    private ObjectNode vat(Catalog.Model model, Catalog.Tokens tokens, String status) {
        ObjectNode envelope = JSON.createObjectNode().put("status", status);
        tally(model.name(), tokens, Catalog.total(Catalog.cost(model, tokens)));
        envelope.putObject("execution").put("durationMs", 200 + random.nextInt(5_000)).put("model", model.name())
                .put("provider", model.provider()).put("tokensUsed", tokens.total())
                .put("cost", Catalog.total(Catalog.cost(model, tokens)))
                .put("timestamp", Instant.now().toString());
        return envelope;
    }

    /** Seed 004: metrics on every result, findings on success, partial findings and a stage on failure. */
    private void review(String task, Catalog.Tokens tokens, String status) {
        String agent = Catalog.REVIEWERS.get(random.nextInt(Catalog.REVIEWERS.size()));
        Catalog.Model model = Catalog.MODELS.get(3);
        // seed 004 names no model: counted under none
        tally(Catalog.NO_MODEL, tokens, Catalog.total(Catalog.cost(model, tokens)));
        ObjectNode review = JSON.createObjectNode().put("agentId", agent).put("status", status);
        review.putObject("metrics").put("durationMs", 1_000 + random.nextInt(20_000)).put("filesProcessed", 1 + random.nextInt(40))
                .put("tokensUsed", tokens.total()).put("estimatedCostUsd", Catalog.total(Catalog.cost(model, tokens)));
        switch (status) {
            case "success" -> finding(review.putArray("findings"), agent, "src/api/handler.ts", 10 + random.nextInt(200));
            case "failure" -> {
                review.put("error", "analyzer crashed on a 40 MB file").put("failureStage", "exec");
                finding(review.putArray("partialFindings"), agent, "src/db/query.ts", 5 + random.nextInt(90));
            }
            default -> review.put("reason", "no files of a reviewed language changed");
        }
        send(review, agent, task, "review-agent");
    }

    private void finding(ArrayNode findings, String agent, String file, int line) {
        findings.addObject().put("severity", random.nextBoolean() ? "warning" : "error").put("file", file).put("line", line)
                .put("message", "user input reaches a SQL query unescaped").put("ruleId", "sql-injection")
                .put("sourceAgent", agent);
    }

    /** A workflow job of 3 to 5 nodes: JSON flat, JSON wrapped and Avro events; every seed 001 result type, and none. */
    private void job(String job) {
        int nodes = 3 + random.nextInt(3);
        for (int step = 1; step <= nodes; step++) {
            String node = "step-" + step;
            int pick = random.nextInt(100);
            String resultType = pick < 55 ? "success" : pick < 75 ? "retryable_failure" : pick < 83 ? "permanent_failure"
                    : pick < 91 ? "compensatable_failure" : null;
            long duration = 100 + random.nextInt(4_000);
            int encoding = random.nextInt(3);
            if (encoding == 2) {
                NodeEventBuilder event = NodeEventBuilder.of(job, node).stepIndex(step).attempt(0)
                        .duration(Duration.ofMillis(duration)).spans("span-" + job + "-" + step, "span-" + job)
                        .payload("{\"rows\":" + random.nextInt(1000) + "}", "{\"step\":" + step + "}");
                NodeFinished built = resultType == null ? event.withoutResultType() : switch (resultType) {
                    case "success" -> event.success();
                    case "retryable_failure" -> event.retryableFailure("upstream timeout");
                    case "permanent_failure" -> event.permanentFailure("404 resource not found");
                    default -> event.compensatableFailure("payment captured, shipping failed");
                };
                track(publisher.publish(built), publisher.topics().nodeFinished());
                continue;
            }
            ObjectNode payload = JSON.createObjectNode().put("job_id", job).put("node_id", node).put("step_index", step)
                    .put("attempt", 0).put("duration_ms", duration).put("trace_span_id", "span-" + job + "-" + step)
                    .put("parent_span_id", "span-" + job);
            payload.putObject("payload_results").put("rows", random.nextInt(1000));
            if (resultType != null) {
                payload.put("result_type", resultType);
                if (!resultType.equals("success")) {
                    payload.put("reason", resultType.equals("retryable_failure") ? "upstream timeout" : "validation failed");
                }
            }
            ObjectNode event = encoding == 0 ? payload
                    : JSON.createObjectNode().put("type", "node_finished").put("job_id", job).set("payload", payload);
            track(publisher.publish(JsonRecord.nodeFinished(job, node, event.toString())), publisher.topics().nodeFinishedJson());
        }
    }

    /** Seed 002: a loop step evaluated, continuing or stopped, as JSON or Avro. */
    private void continuation(String agent, long n) {
        boolean stop = random.nextInt(3) == 0;
        int step = 1 + random.nextInt(12);
        String reason = stop ? "Tool error after 3 consecutive failures (max: 3)" : "Model requested another step";
        if (random.nextBoolean()) {
            ObjectNode event = JSON.createObjectNode().put("agentId", agent).put("step", step).put("shouldContinue", !stop)
                    .put("stopReason", stop ? "retry_limit" : "completed")
                    .put("resolvedBy", stop ? "ToolErrorCriterion" : "aggregate")
                    .put("decision", stop ? "ForbidContinuation" : "RequestContinuation");
            event.putArray("evaluations").addObject().put("criterion", "ToolErrorCriterion")
                    .put("decision", stop ? "ForbidContinuation" : "AllowContinuation").put("reason", reason);
            track(publisher.publish(JsonRecord.continuationEvent(agent, event.toString())),
                    publisher.topics().continuationEventsJson());
        } else {
            ContinuationEvaluated event = ContinuationEvaluated.newBuilder().setAgentId(agent).setStep(step)
                    .setShouldContinue(!stop).setStopReason(stop ? StopReason.RETRY_LIMIT : StopReason.COMPLETED)
                    .setResolvedBy(stop ? "ToolErrorCriterion" : "aggregate")
                    .setDecision(stop ? ContinuationDecision.FORBID_CONTINUATION : ContinuationDecision.REQUEST_CONTINUATION)
                    .setEvaluations(List.of(ContinuationEvaluation.newBuilder().setCriterion("ToolErrorCriterion")
                            .setDecision(stop ? ContinuationDecision.FORBID_CONTINUATION
                                    : ContinuationDecision.ALLOW_CONTINUATION).setReason(reason).build()))
                    .setTimestamp(System.currentTimeMillis()).build();
            track(publisher.publish(event), publisher.topics().continuationEvents());
        }
    }

    private void send(io.agentoutcomes.avro.AgentResult result) {
        track(publisher.publish(result), publisher.topics().agentResults());
    }

    private void send(ObjectNode json, String agent, String task, String dialect) {
        track(publisher.publish(JsonRecord.agentResult(agent, task, json.toString()).resultId(task + "/0").attempt(0)
                .dialect(dialect)), publisher.topics().agentResultsJson());
    }

    /**
     * Counts the tokens and cost of one agent result sent (re-runs too), under the model it names: the fleet's own
     * tally, which every surface of the pipeline must give back.
     */
    synchronized void tally(String model, Catalog.Tokens tokens, BigDecimal cost) {
        sentTokens.merge(model, tokens.total(), Long::sum);
        sentCost.merge(model, cost, BigDecimal::add);
    }

    synchronized Map<String, Long> sentTokensByModel() {
        return new java.util.TreeMap<>(sentTokens);
    }

    synchronized Map<String, BigDecimal> sentCostByModel() {
        Map<String, BigDecimal> copy = new java.util.TreeMap<>();
        sentCost.forEach((model, usd) -> copy.put(model, usd.stripTrailingZeros()));
        return copy;
    }

    /** Counts a record sent to a topic; re-runs are counted here too. */
    synchronized void track(Future<RecordMetadata> sent, String topic) {
        sentByTopic.computeIfAbsent(topic, t -> new AtomicLong()).incrementAndGet();
        inFlight.add(sent);
        if (inFlight.size() > 1_000) {
            settle();
        }
    }

    /** Waits for every record sent so far to be acknowledged, counting those that failed. */
    synchronized void settle() {
        publisher.flush();
        for (Future<RecordMetadata> sent : inFlight) {
            try {
                sent.get();
            } catch (Exception e) {
                failures.incrementAndGet();
            }
        }
        inFlight.clear();
    }

    Map<String, Long> sentByTopic() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        sentByTopic.forEach((topic, count) -> copy.put(topic, count.get()));
        return copy;
    }

    Map<String, Long> sentByKind() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        sentByKind.forEach((kind, count) -> copy.put(kind.name().toLowerCase(java.util.Locale.ROOT), count.get()));
        return copy;
    }

    long failures() {
        return failures.get();
    }
}
