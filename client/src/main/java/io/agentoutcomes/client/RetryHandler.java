package io.agentoutcomes.client;

import io.agentoutcomes.avro.ClassifiedOutcome;

/**
 * What an orchestrator does with what the pipeline hands back. Called on the consumer's thread, one record at a time
 * in partition order; the record's offset is committed only after the call returns. A call that throws is made again
 * for the same record (after {@link RetryConsumer.Options#redeliveryBackoff()}).
 */
public interface RetryHandler {
    /** Re-run the task as {@code retry.nextAttempt()}. */
    void onRetry(DueRetry retry) throws Exception;

    /** A task the pipeline stopped (only with {@link RetryConsumer.Options#deadLetters()}); alert, compensate, or ignore. */
    default void onDeadLetter(ClassifiedOutcome stopped) throws Exception {
    }
}
