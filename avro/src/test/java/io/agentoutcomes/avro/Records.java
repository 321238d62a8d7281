package io.agentoutcomes.avro;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Fully populated examples of every record of the contract, for round-trip tests. */
public final class Records {
    private Records() {
    }

    public static ExecutionMetadata execution() {
        return ExecutionMetadata.newBuilder()
                .setDurationMs(1234L)
                .setModel("gpt-4o-mini")
                .setProvider("openai")
                .setRequestId("req_abc123")
                .setTimestamp(Instant.parse("2024-01-26T15:30:00Z").toEpochMilli())
                .setRetryCount(2)
                .setUsage(Usage.newBuilder().setInputTokens(100L).setOutputTokens(50L).setTotalTokens(150L)
                        .setCacheReadTokens(10L).setCacheWriteTokens(5L).setApiCalls(1L).build())
                .setCost(Cost.newBuilder()
                        .setInput(Money.toBytes(new BigDecimal("0.001000000000")))
                        .setOutput(Money.toBytes(new BigDecimal("0.002000000000")))
                        .setCacheRead(Money.toBytes(new BigDecimal("0.000100000000")))
                        .setCacheWrite(Money.toBytes(new BigDecimal("0.000200000000")))
                        .setTotal(Money.toBytes(new BigDecimal("0.003300000000")))
                        .setSource(CostSource.REPORTED)
                        .build())
                .build();
    }

    public static Finding finding(String message) {
        return Finding.newBuilder().setSeverity(Severity.WARNING).setFile("src/app.ts").setLine(10).setEndLine(12)
                .setMessage(message).setSuggestion("escape the input").setRuleId("xss").setSourceAgent("security")
                .setFingerprint("fp-1").setMetadata("{\"cwe\":\"CWE-79\"}").build();
    }

    public static AgentResult.Builder base(String resultId) {
        return AgentResult.newBuilder()
                .setResultId(resultId)
                .setAgentId("photo-analyzer")
                .setTaskId("task-42")
                .setJobId("job-7")
                .setNodeId("n1")
                .setAttempt(1)
                .setConfidence(0.65)
                .setDialect(Dialect.FLATAGENTS)
                .setRecordTimestamp(Instant.parse("2024-01-26T15:30:02Z").toEpochMilli())
                .setExecution(execution())
                .setRateLimit(RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(60_000L)
                        .setWindows(List.of(RateLimitWindow.newBuilder().setName("requests_per_minute")
                                .setResource("requests").setRemaining(0L).setLimit(60L).setResetsInMs(45_000L)
                                .setResetAtMs(1234567890_000L).build()))
                        .build())
                .setProviderData(ProviderData.newBuilder().setProvider("cerebras").setModel("llama-4-scout-17b")
                        .setRequestId("req_abc123")
                        .setRawHeaders(Map.of("x-ratelimit-remaining-requests-minute", "10")).build())
                .setReply("I found a Maine Coon")
                .setSessionState("{\"turn\":3}")
                .setMetadata("{\"filesProcessed\":5}");
    }

    public static AgentResult success() {
        return base("r-success").setOutcome(Success.newBuilder().setData("{\"breed\":\"Maine Coon\"}")
                .setContent("Maine Coon").setFindings(List.of(finding("possible XSS")))
                .setWarnings(List.of("Image quality was poor")).setFinishReason("stop").build()).build();
    }

    public static AgentResult failure() {
        return base("r-failure").setOutcome(Failure.newBuilder()
                .setError(ErrorInfo.newBuilder().setCode("rate_limit").setType("RateLimitError")
                        .setMessage("Too many requests").setStatusCode(429).setRetryable(true)
                        .setCategory(ErrorCategory.RATE_LIMIT).build())
                .setStage(FailureStage.EXEC).setPartialFindings(List.of(finding("partial")))
                .setWarnings(List.of("retrying")).setFinishReason("error").build()).build();
    }

    public static AgentResult inProgress() {
        return base("r-progress").setOutcome(InProgress.newBuilder()
                .setProgress("{\"factorsCollected\":2,\"requiredFactors\":4}").setWarnings(List.of()).build()).build();
    }

    public static AgentResult skipped() {
        return base("r-skipped").setOutcome(Skipped.newBuilder().setReason("No TypeScript files in diff").build()).build();
    }

    public static NodeFinished nodeFinished() {
        return NodeFinished.newBuilder().setJobId("job-7").setNodeId("n1").setPayloadResults("{\"n1\":{\"ok\":true}}")
                .setTraceSpanId("span-2").setParentSpanId("span-1").setStepIndex(3).setDurationMs(250L)
                .setState("{\"cursor\":\"n1\"}").setAttempt(1).setTimestamp(Instant.parse("2024-01-26T15:30:05Z").toEpochMilli())
                .setResultType(StepResultType.PERMANENT_FAILURE).setReason("404 not found").build();
    }

    public static ContinuationEvaluated continuationEvaluated() {
        return ContinuationEvaluated.newBuilder().setAgentId("agent-1").setParentAgentId("parent-1").setStep(4)
                .setShouldContinue(false).setDecision(ContinuationDecision.ALLOW_STOP)
                .setStopReason(StopReason.RETRY_LIMIT).setResolvedBy("ErrorPolicyCriterion")
                .setEvaluations(List.of(ContinuationEvaluation.newBuilder().setCriterion("ErrorPolicyCriterion")
                        .setDecision(ContinuationDecision.FORBID_CONTINUATION)
                        .setReason("Tool error after 3 consecutive failures (max: 3)")
                        .setContext("{\"errorType\":\"tool\",\"consecutiveFailures\":3}").build()))
                .setTimestamp(Instant.parse("2024-01-26T15:30:06Z").toEpochMilli()).build();
    }
}
