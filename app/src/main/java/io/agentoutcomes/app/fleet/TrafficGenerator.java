package io.agentoutcomes.app.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.client.JsonRecord;
import io.agentoutcomes.client.OutcomePublisher;
import io.agentoutcomes.client.ResultBuilder;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;

/**
 * What a real fleet publishes, drawn from a seeded random source: agent results in every input dialect as JSON (VAT
 * envelopes, flatagents results, review results) and canonical Avro; successes and every kind of error (rate limits
 * with {@code retry_after} and provider headers, exhausted daily windows, timeouts, unavailable providers, refusals,
 * invalid output, skipped runs, review failures with partial findings); several providers and models with realistic
 * tokens, cache reads and writes, and costs; and, through {@link WorkflowTraffic}, workflow jobs and loop steps.
 * What it sent is counted in a {@link SentLedger}. Not thread-safe: one thread draws the first attempts.
 */
final class TrafficGenerator {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OutcomePublisher publisher;
    private final SentLedger ledger;
    private final Random random;
    private final WorkflowTraffic workflows;
    private final String run;
    private long next;
    /** Whether results report their cost; without, only their tokens (the pipeline prices them). */
    private final boolean reportCosts;

    TrafficGenerator(OutcomePublisher publisher, SentLedger ledger, long seed, String run, boolean reportCosts) {
        this.reportCosts = reportCosts;
        this.publisher = publisher;
        this.ledger = ledger;
        this.random = new Random(seed);
        this.workflows = new WorkflowTraffic(publisher, ledger, random);
        this.run = run;
    }

    /** Publishes the first attempt of one more task, job or loop step. */
    void next() {
        long n = next++;
        int pick = random.nextInt(100);
        TrafficKind kind = TrafficKind.JOB;
        for (TrafficKind k : TrafficKind.values()) {
            if (pick < k.weight) {
                kind = k;
                break;
            }
            pick -= k.weight;
        }
        ledger.countKind(kind);
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
            case JOB -> workflows.job(run + "-job" + n);
            case CONTINUATION -> workflows.continuation(agent, n);
        }
    }

    private ResultBuilder avro(String agent, String task, Catalog.Model model, Catalog.Tokens tokens) {
        BigDecimal[] cost = Catalog.cost(model, tokens);
        ledger.tally(model.name(), tokens, sent(cost));
        ResultBuilder result = ResultBuilder.of(agent, task).model(model.provider(), model.name())
                .duration(Duration.ofMillis(300 + random.nextInt(8_000)))
                .usage(tokens.reportedInput(model), tokens.output(), tokens.cacheRead(), tokens.cacheWrite());
        return reportCosts ? result.cost(cost[0], cost[1], cost[2], cost[3]) : result;
    }

    /** The cost the fleet tallies as sent: what its results report, nothing where they report none. */
    private BigDecimal sent(BigDecimal[] cost) {
        return reportCosts ? Catalog.total(cost) : BigDecimal.ZERO;
    }

    /** A flatagents result: usage with cache reads and writes, a cost breakdown, provider data. */
    private ObjectNode flat(String agent, String task, Catalog.Model model, Catalog.Tokens tokens) {
        ObjectNode flat = JSON.createObjectNode().put("agent_id", agent).put("task_id", task).put("result_id", task + "/0");
        flat.putObject("usage").put("input_tokens", tokens.reportedInput(model)).put("output_tokens", tokens.output())
                .put("total_tokens", tokens.total()).put("cache_read_tokens", tokens.cacheRead())
                .put("cache_write_tokens", tokens.cacheWrite()).put("api_calls", 1);
        BigDecimal[] cost = Catalog.cost(model, tokens);
        ledger.tally(model.name(), tokens, sent(cost));
        if (reportCosts) {
            flat.putObject("cost").put("input", cost[0]).put("output", cost[1]).put("cache_read", cost[2])
                    .put("cache_write", cost[3]).put("total", Catalog.total(cost));
        }
        providerData(flat, model, task, Map.of("x-request-id", "req-" + task));
        return flat;
    }

    private static void providerData(ObjectNode flat, Catalog.Model model, String task, Map<String, String> headers) {
        ObjectNode data = flat.putObject("provider_data").put("provider", model.provider()).put("model", model.name())
                .put("request_id", "req-" + task);
        ObjectNode raw = data.putObject("raw_headers");
        headers.forEach(raw::put);
    }

    /** A VAT envelope with its execution metadata (tokensUsed and a reported cost). */
    private ObjectNode vat(Catalog.Model model, Catalog.Tokens tokens, String status) {
        ObjectNode envelope = JSON.createObjectNode().put("status", status);
        ledger.tally(model.name(), tokens, sent(Catalog.cost(model, tokens)));
        ObjectNode execution = envelope.putObject("execution").put("durationMs", 200 + random.nextInt(5_000))
                .put("model", model.name()).put("provider", model.provider()).put("tokensUsed", tokens.total())
                .put("timestamp", Instant.now().toString());
        if (reportCosts) {
            execution.put("cost", Catalog.total(Catalog.cost(model, tokens)));
        }
        return envelope;
    }

    /** A review result: metrics on every result, findings on success, partial findings and a stage on failure. */
    private void review(String task, Catalog.Tokens tokens, String status) {
        String agent = Catalog.REVIEWERS.get(random.nextInt(Catalog.REVIEWERS.size()));
        Catalog.Model model = Catalog.MODELS.get(3);
        // a review result names no model: counted under none
        ledger.tally(Catalog.NO_MODEL, tokens, sent(Catalog.cost(model, tokens)));
        ObjectNode review = JSON.createObjectNode().put("agentId", agent).put("status", status);
        ObjectNode metrics = review.putObject("metrics").put("durationMs", 1_000 + random.nextInt(20_000))
                .put("filesProcessed", 1 + random.nextInt(40)).put("tokensUsed", tokens.total());
        if (reportCosts) {
            metrics.put("estimatedCostUsd", Catalog.total(Catalog.cost(model, tokens)));
        }
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

    private void send(AgentResult result) {
        ledger.track(publisher.publish(result), publisher.topics().agentResults());
    }

    private void send(ObjectNode json, String agent, String task, String dialect) {
        ledger.track(publisher.publish(JsonRecord.agentResult(agent, task, json.toString()).resultId(task + "/0").attempt(0)
                .dialect(dialect)), publisher.topics().agentResultsJson());
    }
}
