package io.agentoutcomes.client;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.InProgress;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.Skipped;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the canonical {@link AgentResult} of one attempt: identity, execution (model, provider, usage, cost),
 * rate-limit state, then its outcome ({@link #success}, {@link #error}, {@link #skipped}, {@link #inProgress}).
 * <p>
 * The result id defaults to {@code <taskId>/<attempt>}: the same attempt sent twice (a producer retry, an
 * orchestrator re-running a retry it was handed twice) carries the same id, and the pipeline processes it once.
 * Set another with {@link #resultId} when one task may legitimately complete twice at the same attempt.
 */
public final class ResultBuilder {
    /** Money has 12 decimal places in the contract (pico-dollars). */

    private final String agentId;
    private final String taskId;
    private String resultId;
    private int attempt;
    private String jobId;
    private String nodeId;
    private Double confidence;
    private final ExecutionMetadata.Builder execution = ExecutionMetadata.newBuilder();
    private boolean hasExecution;
    private RateLimitState rateLimit;
    private ProviderData providerData;
    private String metadata;

    private ResultBuilder(String agentId, String taskId) {
        this.agentId = Objects.requireNonNull(agentId, "agentId");
        this.taskId = Objects.requireNonNull(taskId, "taskId");
    }

    /** A result of {@code agentId} for {@code taskId}, attempt 0. */
    public static ResultBuilder of(String agentId, String taskId) {
        return new ResultBuilder(agentId, taskId);
    }

    public ResultBuilder resultId(String id) {
        this.resultId = id;
        return this;
    }

    /** 0 = the first try; a re-run of a retry is {@code DueRetry.nextAttempt()}. */
    public ResultBuilder attempt(int attempt) {
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must not be negative: " + attempt);
        }
        this.attempt = attempt;
        return this;
    }

    /** The workflow job and node the task runs as. */
    public ResultBuilder job(String jobId, String nodeId) {
        this.jobId = jobId;
        this.nodeId = nodeId;
        return this;
    }

    /** The agent's confidence in its result, 0..1. */
    public ResultBuilder confidence(double confidence) {
        if (!(confidence >= 0 && confidence <= 1)) {
            throw new IllegalArgumentException("confidence must be within 0..1: " + confidence);
        }
        this.confidence = confidence;
        return this;
    }

    public ResultBuilder model(String provider, String model) {
        execution.setProvider(provider).setModel(model);
        hasExecution = true;
        return this;
    }

    public ResultBuilder requestId(String requestId) {
        execution.setRequestId(requestId);
        hasExecution = true;
        return this;
    }

    public ResultBuilder duration(Duration duration) {
        execution.setDurationMs(duration.toMillis());
        hasExecution = true;
        return this;
    }

    public ResultBuilder startedAt(Instant start) {
        execution.setTimestamp(start.toEpochMilli());
        hasExecution = true;
        return this;
    }

    /** Token counts; the total is input + output (cache reads are part of the input, as providers report them). */
    public ResultBuilder usage(long input, long output, long cacheRead, long cacheWrite) {
        execution.setUsage(Usage.newBuilder().setInputTokens(input).setOutputTokens(output)
                .setTotalTokens(input + output).setCacheReadTokens(cacheRead).setCacheWriteTokens(cacheWrite)
                .setApiCalls(1L).build());
        hasExecution = true;
        return this;
    }

    /** A total cost in US dollars, as the provider reported it. */
    public ResultBuilder cost(BigDecimal totalUsd) {
        execution.setCost(Cost.newBuilder().setTotal(money(totalUsd)).setSource(CostSource.REPORTED).build());
        hasExecution = true;
        return this;
    }

    /** A cost breakdown in US dollars; the total is the exact sum of the parts. */
    public ResultBuilder cost(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
        BigDecimal total = input.add(output).add(cacheRead).add(cacheWrite);
        execution.setCost(Cost.newBuilder().setInput(money(input)).setOutput(money(output)).setCacheRead(money(cacheRead))
                .setCacheWrite(money(cacheWrite)).setTotal(money(total)).setSource(CostSource.REPORTED).build());
        hasExecution = true;
        return this;
    }

    /** The provider's rate-limit state: whether a limit is exhausted, the wait it asked for, and its windows. */
    public ResultBuilder rateLimit(boolean limited, Duration retryAfter, RateLimitWindow... windows) {
        rateLimit = RateLimitState.newBuilder().setLimited(limited)
                .setRetryAfterMs(retryAfter == null ? null : retryAfter.toMillis())
                .setWindows(List.of(windows)).build();
        return this;
    }

    /** One rate-limit window, e.g. {@code window("requests_per_minute", "requests", 0, 500, Duration.ofSeconds(20))}. */
    public static RateLimitWindow window(String name, String resource, long remaining, long limit, Duration resetsIn) {
        return RateLimitWindow.newBuilder().setName(name).setResource(resource).setRemaining(remaining).setLimit(limit)
                .setResetsInMs(resetsIn.toMillis()).build();
    }

    /**
     * Provider data with rate-limit and request-id response headers. Do not pass credentials: the pipeline removes
     * them from JSON input, but Avro records are written as sent.
     */
    public ResultBuilder provider(String provider, String model, String requestId, Map<String, String> rawHeaders) {
        providerData = ProviderData.newBuilder().setProvider(provider).setModel(model).setRequestId(requestId)
                .setRawHeaders(new LinkedHashMap<>(rawHeaders)).build();
        return model(provider, model).requestId(requestId);
    }

    /** Agent metadata as JSON text. */
    public ResultBuilder metadata(String json) {
        this.metadata = json;
        return this;
    }

    /** The attempt succeeded with {@code dataJson} (JSON text, or null). */
    public AgentResult success(String dataJson) {
        return build(Success.newBuilder().setData(dataJson).build());
    }

    /** The attempt succeeded with findings (a review result). */
    public AgentResult success(List<Finding> findings) {
        return build(Success.newBuilder().setFindings(new ArrayList<>(findings)).build());
    }

    /** The attempt failed with an error code: a canonical one ({@code llm-timeout}) or another an agent reports ({@code rate_limit}). */
    public AgentResult error(String code, String message) {
        return error(ErrorInfo.newBuilder().setCode(code).setMessage(message).build());
    }

    /** The attempt failed with a structured error (type, HTTP status, retryable hint, tool name). */
    public AgentResult error(ErrorInfo error) {
        return build(Failure.newBuilder().setError(error).build());
    }

    /** The attempt failed with findings gathered before the failure (a review result's partial findings). */
    public AgentResult error(ErrorInfo error, List<Finding> partialFindings) {
        return build(Failure.newBuilder().setError(error).setPartialFindings(new ArrayList<>(partialFindings)).build());
    }

    /** The agent did not apply and did not run (a review result's skipped). */
    public AgentResult skipped(String reason) {
        return build(Skipped.newBuilder().setReason(reason).build());
    }

    /** A conversational agent has not finished (in progress), with progress as JSON text. */
    public AgentResult inProgress(String progressJson) {
        return build(InProgress.newBuilder().setProgress(progressJson).build());
    }

    private AgentResult build(Object outcome) {
        return AgentResult.newBuilder()
                .setResultId(resultId != null ? resultId : taskId + "/" + attempt)
                .setAgentId(agentId).setTaskId(taskId).setJobId(jobId).setNodeId(nodeId).setAttempt(attempt)
                .setConfidence(confidence)
                .setExecution(hasExecution ? execution.build() : null)
                .setRateLimit(rateLimit).setProviderData(providerData).setMetadata(metadata)
                .setOutcome(outcome).build();
    }

    private static ByteBuffer money(BigDecimal usd) {
        if (usd.signum() < 0) {
            throw new IllegalArgumentException("a cost must not be negative: " + usd);
        }
        if (!Money.fits(usd)) {
            throw new IllegalArgumentException("a cost has at most " + Money.SCALE + " decimal places and "
                    + Money.PRECISION + " digits: " + usd);
        }
        return Money.toBytes(usd);
    }
}
