package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ConfidenceAction;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.topic.OutputHeaders;
import java.time.Instant;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Writes each classified outcome to every topic its decision names, by forwarding it to the sink of that topic: all to
 * {@code outcomes-classified}; stops (not compensatable) to {@code dead-letter} with the headers that identify them and
 * where they came from; compensatable failures to {@code compensations}, keyed by job; outcomes whose confidence asks
 * for it to {@code verifications}; retries, as the {@link RetryRequest} an orchestrator gets with the headers that say
 * which retry it is, to the delay tier's topic. One processor instead of a filter per destination: each node a record
 * passes costs Kafka Streams a forward and a copy of the record's headers.
 */
public final class OutcomeRouter implements Processor<String, ClassifiedOutcome, String, Object> {
    /** The sink nodes it forwards to (named in {@link ClassifyTopology#route}). */
    static final String OUTCOMES = "write-outcomes-classified";
    static final String DEAD_LETTERS = "write-dead-letter";
    static final String COMPENSATIONS = "write-compensations";
    static final String VERIFICATIONS = "write-verifications";
    static final String RETRIES = "write-retry-delay";

    /**
     * The headers a dead letter and a retry are given, in this order, beside the input's. A retry's say which task to
     * re-run as which attempt and when, for an orchestrator that routes without decoding; its result id is in the value
     * (the client reads it there), and it carries no provenance: a redrive starts from the dead letter, which has it.
     */
    private static final String[] DEAD_LETTER_HEADERS = {HeaderNames.TASK_ID, HeaderNames.RESULT_ID, HeaderNames.ATTEMPT};
    private static final String[] RETRY_HEADERS = {HeaderNames.TASK_ID, HeaderNames.RESULT_ID, HeaderNames.ATTEMPT,
        HeaderNames.DUE_AT};

    private final RetryTiers tiers;
    private final FallbackChains fallbacks;
    private ProcessorContext<String, Object> context;

    OutcomeRouter(RetryTiers tiers, FallbackChains fallbacks) {
        this.tiers = tiers;
        this.fallbacks = fallbacks;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void process(Record<String, ClassifiedOutcome> record) {
        ClassifiedOutcome outcome = record.value();
        Record<String, Object> out = (Record<String, Object>) (Record<String, ?>) record;
        context.forward(out, OUTCOMES);
        if (outcome.getResultType() == ResultType.COMPENSATABLE_FAILURE) {
            context.forward(out.withKey(outcome.getJobId() != null ? outcome.getJobId() : record.key()), COMPENSATIONS);
        } else if (Outcomes.isDeadLetter(outcome)) {
            context.forward(out.withHeaders(deadLetterHeaders(record.headers(), outcome, source())), DEAD_LETTERS);
        }
        if (outcome.getConfidenceCheck() != null && outcome.getConfidenceCheck().getAction() == ConfidenceAction.VERIFY) {
            context.forward(out, VERIFICATIONS);
        }
        if (Outcomes.isRetry(outcome)) {
            RetryRequest retry = RetryRequests.of(outcome, tiers, fallbacks);
            context.forward(out.withValue(retry).withHeaders(retryHeaders(record.headers(), retry, source())), RETRIES);
        }
    }

    private RecordMetadata source() {
        return context.recordMetadata().orElse(null);
    }

    /** A stopped outcome's headers: the input's, and those that identify it and where it came from. */
    static Headers deadLetterHeaders(Headers input, ClassifiedOutcome outcome, RecordMetadata source) {
        return OutputHeaders.copyWith(input, source, DEAD_LETTER_HEADERS,
                new String[] {outcome.getTaskId(), outcome.getResultId(), Integer.toString(outcome.getAttempt())}, true);
    }

    /**
     * A retry's headers: the input's without provenance, and those that say which retry it is and when it is due; the
     * input's {@code result-id} is removed (null), the retry's value names the failed result.
     */
    static Headers retryHeaders(Headers input, RetryRequest retry, RecordMetadata source) {
        return OutputHeaders.copyWith(input, source, RETRY_HEADERS, new String[] {retry.getTaskId(), null,
                Integer.toString(retry.getNextAttempt()), Instant.ofEpochMilli(retry.getDueAt()).toString()}, false);
    }
}
