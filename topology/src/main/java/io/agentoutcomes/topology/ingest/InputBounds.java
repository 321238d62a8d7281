package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.TOO_LARGE;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Finding;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ProviderData;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bounds every canonical record is held to, however it arrived: as JSON (checked again after normalizing, which
 * already refuses most of this) or as Avro written by a producer (checked as it is decoded, before any stage sees it).
 * Counts, durations and money are not negative, confidence is within 0..1, money has at most
 * {@value Money#PRECISION} digits, attempt numbers are at most {@value InputLimits#MAX_ATTEMPT}, identities and labels
 * at most {@value InputLimits#MAX_ID_CHARS} characters, times between 1970 and the year 9999. Two changes are made to
 * the record: a provider's raw headers keep only what ingestion keeps of them ({@link RawHeaderRedactor}), and
 * credential-like text in free-text fields is replaced ({@link FreeTextScrubber}), after every other check.
 * <p>
 * A violation is an {@link InvalidInputException} of kind {@code out-of-range} or {@code too-large}, naming the field.
 * Per record this is a few comparisons; no decimal is made for money of up to 12 bytes.
 */
public final class InputBounds {
    /** 9999-12-31T23:59:59.999Z: the last time ISO 8601 writes without a sign. */
    static final long MAX_TIME = 253_402_300_799_999L;

    private InputBounds() {
    }

    public static void check(AgentResult result) {
        id("resultId", result.getResultId());
        id("agentId", result.getAgentId());
        id("taskId", result.getTaskId());
        id("jobId", result.getJobId());
        id("nodeId", result.getNodeId());
        attempt("attempt", result.getAttempt());
        Double confidence = result.getConfidence();
        if (confidence != null && !(confidence >= 0 && confidence <= 1)) {
            throw new InvalidInputException(OUT_OF_RANGE, "confidence is " + confidence + ": must be between 0 and 1");
        }
        time("recordTimestamp", result.getRecordTimestamp());
        ExecutionMetadata execution = result.getExecution();
        if (execution != null) {
            execution(execution);
        }
        RateLimitState rateLimit = result.getRateLimit();
        if (rateLimit != null) {
            notNegative("rateLimit.retryAfterMs", rateLimit.getRetryAfterMs());
            List<RateLimitWindow> windows = rateLimit.getWindows();
            for (int i = 0; i < windows.size(); i++) {
                RateLimitWindow window = windows.get(i);
                String at = "rateLimit.windows[" + i + "].";
                notNegative(at + "remaining", window.getRemaining());
                notNegative(at + "limit", window.getLimit());
                notNegative(at + "resetsInMs", window.getResetsInMs());
                time(at + "resetAtMs", window.getResetAtMs());
            }
        }
        ProviderData provider = result.getProviderData();
        if (provider != null) {
            id("providerData.provider", provider.getProvider());
            id("providerData.model", provider.getModel());
            redactRawHeaders(provider);
        }
        Object outcome = result.getOutcome();
        if (outcome instanceof Success success) {
            findings("outcome.findings", success.getFindings());
        } else if (outcome instanceof Failure failure) {
            Integer status = failure.getError().getStatusCode();
            if (status != null && status < 0) {
                throw new InvalidInputException(OUT_OF_RANGE, "outcome.error.statusCode is " + status + ": must not be negative");
            }
            findings("outcome.partialFindings", failure.getPartialFindings());
        }
        FreeTextScrubber.scrub(result);
    }

    public static void check(NodeFinished event) {
        id("jobId", event.getJobId());
        id("nodeId", event.getNodeId());
        attempt("attempt", event.getAttempt());
        notNegative("stepIndex", event.getStepIndex());
        notNegative("durationMs", event.getDurationMs());
        time("timestamp", event.getTimestamp());
        FreeTextScrubber.scrub(event);
    }

    public static void check(ContinuationEvaluated event) {
        id("agentId", event.getAgentId());
        id("parentAgentId", event.getParentAgentId());
        if (event.getStep() < 0) {
            throw new InvalidInputException(OUT_OF_RANGE, "step is " + event.getStep() + ": must not be negative");
        }
        time("timestamp", event.getTimestamp());
        FreeTextScrubber.scrub(event);
    }

    private static void execution(ExecutionMetadata execution) {
        id("execution.model", execution.getModel());
        id("execution.provider", execution.getProvider());
        notNegative("execution.durationMs", execution.getDurationMs());
        time("execution.timestamp", execution.getTimestamp());
        if (execution.getRetryCount() != null) {
            attempt("execution.retryCount", execution.getRetryCount());
        }
        Usage usage = execution.getUsage();
        if (usage != null) {
            notNegative("execution.usage.inputTokens", usage.getInputTokens());
            notNegative("execution.usage.outputTokens", usage.getOutputTokens());
            notNegative("execution.usage.reasoningTokens", usage.getReasoningTokens());
            notNegative("execution.usage.totalTokens", usage.getTotalTokens());
            notNegative("execution.usage.cacheReadTokens", usage.getCacheReadTokens());
            notNegative("execution.usage.cacheWriteTokens", usage.getCacheWriteTokens());
            notNegative("execution.usage.apiCalls", usage.getApiCalls());
        }
        Cost cost = execution.getCost();
        if (cost != null) {
            money("execution.cost.total", cost.getTotal());
            money("execution.cost.input", cost.getInput());
            money("execution.cost.output", cost.getOutput());
            money("execution.cost.cacheRead", cost.getCacheRead());
            money("execution.cost.cacheWrite", cost.getCacheWrite());
        }
    }

    private static void findings(String name, List<Finding> findings) {
        for (int i = 0; i < findings.size(); i++) {
            notNegative(name + "[" + i + "].line", findings.get(i).getLine());
            notNegative(name + "[" + i + "].endLine", findings.get(i).getEndLine());
        }
    }

    /** Only the raw headers ingestion keeps (rate limits, retry-after, request ids; nothing named like a credential). */
    private static void redactRawHeaders(ProviderData provider) {
        Map<String, String> raw = provider.getRawHeaders();
        if (raw == null || raw.isEmpty()) {
            return;
        }
        for (String name : raw.keySet()) {
            if (!RawHeaderRedactor.keeps(name) || !name.equals(name.toLowerCase(Locale.ROOT).trim())) {
                provider.setRawHeaders(RawHeaderRedactor.redact(raw));
                return;
            }
        }
    }

    /** An identity or label: at most {@link InputLimits#MAX_ID_CHARS} characters (null passes). */
    static void id(String name, CharSequence value) {
        if (value != null && value.length() > InputLimits.MAX_ID_CHARS) {
            throw new InvalidInputException(TOO_LARGE, name + " is " + value.length() + " characters long: longer than "
                    + InputLimits.MAX_ID_CHARS);
        }
    }

    private static void attempt(String name, int attempt) {
        if (attempt < 0 || attempt > InputLimits.MAX_ATTEMPT) {
            throw new InvalidInputException(OUT_OF_RANGE, name + " is " + attempt + ": out of range (0 to "
                    + InputLimits.MAX_ATTEMPT + ")");
        }
    }

    private static void notNegative(String name, Number value) {
        if (value != null && value.longValue() < 0) {
            throw new InvalidInputException(OUT_OF_RANGE, name + " is " + value + ": must not be negative");
        }
    }

    private static void time(String name, Long epochMillis) {
        if (epochMillis != null && (epochMillis < 0 || epochMillis > MAX_TIME)) {
            throw new InvalidInputException(OUT_OF_RANGE, name + " is " + epochMillis
                    + ": out of range (epoch milliseconds from 1970 to the year 9999)");
        }
    }

    /**
     * A time as written ({@code text}), checked before anything converts it to epoch milliseconds, which the year
     * ±999999999 overflows.
     */
    static Instant time(String name, String text, Instant instant) {
        if (instant.isBefore(Instant.EPOCH) || instant.isAfter(Instant.ofEpochMilli(MAX_TIME))) {
            throw new InvalidInputException(OUT_OF_RANGE, name + " is '" + text + "': out of range (from 1970 to the year 9999)");
        }
        return instant;
    }

    private static void money(String name, ByteBuffer amount) {
        if (!Money.fitsNonNegative(amount)) {
            // Quoted only when short: writing out a number of a million digits takes seconds.
            String value = amount.remaining() <= 32 ? Money.toDecimal(amount).toPlainString()
                    : "an amount of " + amount.remaining() + " bytes";
            throw new InvalidInputException(OUT_OF_RANGE, name + " is " + value + ": must not be negative, and at most "
                    + Money.PRECISION + " digits (" + Money.SCALE + " after the point)");
        }
    }
}
