package io.agentoutcomes.client;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A retry the pipeline handed back on {@code retry-ready}: which task to re-run, as which attempt, why it failed and
 * waited, and the provider hints for the re-run (a {@code SWITCH_PROVIDER} action when a daily window ran out; the
 * model of a declared fallback chain, {@link #runOnModel()}).
 *
 * @param request    the pipeline's {@code RetryRequest}, with the original result or event
 * @param receivedAt when this consumer read it
 * @param partition  the {@code retry-ready} partition it was read from
 * @param offset     its offset there
 * @param redriveId  the redrive that re-issued it from a dead letter ({@code agent-outcomes-redrive-id}), or null: publish
 *                   the re-run with {@link OutcomePublisher#publish(AgentResult, DueRetry)} so that the pipeline gives
 *                   the task a fresh attempt budget
 */
public record DueRetry(RetryRequest request, Instant receivedAt, int partition, long offset, String redriveId) {

    public String taskId() {
        return request.getTaskId();
    }

    /** The result id of the failed attempt this retry follows: the consumer's idempotency key. */
    public String failedResultId() {
        return request.getResultId();
    }

    /** The retry read from {@code record}, its redrive id from the record's header. */
    static DueRetry read(RetryRequest request, Instant receivedAt, ConsumerRecord<?, ?> record) {
        return new DueRetry(request, receivedAt, record.partition(), record.offset(),
                IdentityHeaders.get(record.headers(), HeaderNames.REDRIVE_ID));
    }

    /**
     * What the consumer remembers it handled: the failed result id, and the redrive's id for a redriven retry (a redrive
     * re-issues a failed result id that may have been handled before, and a task can be redriven twice).
     */
    String handledKey() {
        return "retry/" + request.getResultId() + (redriveId == null ? "" : "/redrive/" + redriveId);
    }

    /** Whether an operator redrove it from {@code dead-letter}: the re-run starts the task afresh, at attempt 0. */
    public boolean redriven() {
        return redriveId != null;
    }

    /** The attempt number the re-run is (the failed attempt + 1; 0 for a redrive): publish the re-run's result with it. */
    public int nextAttempt() {
        return request.getNextAttempt();
    }

    /** The canonical error code of the failure, e.g. {@code llm-rate-limit}. */
    public String errorCode() {
        return request.getErrorCode();
    }

    /** The policy's reason, e.g. {@code Rate_limit error, retrying (1/5)}. */
    public String reason() {
        return request.getReason();
    }

    /** Why it waited as long as it did (the backoff, or the provider's retry-after or window reset). */
    public String delayReason() {
        return request.getDelayReason();
    }

    public Instant dueAt() {
        return Instant.ofEpochMilli(request.getDueAt());
    }

    /** True if it was read before its due time (the pipeline never delivers early; this is for checking that). */
    public boolean early() {
        return receivedAt.isBefore(dueAt());
    }

    /** {@code WAIT}, or {@code SWITCH_PROVIDER}: re-run on another provider, {@link #exhaustedWindow()} ran out. */
    public RetryAction action() {
        return request.getAction() == null ? RetryAction.WAIT : request.getAction();
    }

    public String exhaustedWindow() {
        return request.getExhaustedWindow();
    }

    /** The provider the failed attempt used, if the result said. */
    public String provider() {
        AgentResult result = request.getAgentResult();
        return result == null || result.getExecution() == null ? null : result.getExecution().getProvider();
    }

    /** The model the failed attempt used, if the result said. */
    public String model() {
        AgentResult result = request.getAgentResult();
        return result == null || result.getExecution() == null ? null : result.getExecution().getModel();
    }

    /**
     * The provider to re-run the task on: where a declared fallback chain applies ({@link #fallbackCause()}), the
     * chain's model; else the failed attempt's, {@link #provider()}.
     */
    public String runOnProvider() {
        return request.getFallbackProvider() != null ? request.getFallbackProvider() : provider();
    }

    /** The model to re-run the task on: the fallback chain's, where one applies; else the failed attempt's. */
    public String runOnModel() {
        return request.getFallbackProvider() != null ? request.getFallbackModel() : model();
    }

    /** Whether a declared fallback chain sends the re-run to another model ({@link #runOnModel()}). */
    public boolean fallback() {
        return request.getFallbackProvider() != null;
    }

    /** Why the failed model is not used again ({@code CIRCUIT_OPEN}, ...), or null where no fallback applies. */
    public FallbackCause fallbackCause() {
        return request.getFallbackCause();
    }

    /** Why, in words, naming the setting that declared the chain, or null. */
    public String fallbackReason() {
        return request.getFallbackReason();
    }

    /** The provider's rate-limit state on the failed attempt, or null. */
    public RateLimitState rateLimit() {
        return request.getAgentResult() == null ? null : request.getAgentResult().getRateLimit();
    }

    /** The failed agent result, for agent tasks; null for workflow nodes. */
    public AgentResult failedResult() {
        return request.getAgentResult();
    }

    /** The failed {@code node_finished} event, for workflow nodes; null for agent tasks. */
    public NodeFinished failedNode() {
        return request.getNodeFinished();
    }
}
