package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.OutputHeaders;
import java.time.Instant;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/** Each retried outcome as the retry request an orchestrator gets, with the headers that say which retry it is. */
public final class RetryRequests implements FixedKeyProcessor<String, ClassifiedOutcome, RetryRequest> {
    private final RetryTiers tiers;
    private FixedKeyProcessorContext<String, RetryRequest> context;

    RetryRequests(RetryTiers tiers) {
        this.tiers = tiers;
    }

    @Override
    public void init(FixedKeyProcessorContext<String, RetryRequest> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, ClassifiedOutcome> record) {
        RetryRequest retry = Decisions.retryRequest(record.value(), tiers);
        Headers headers = OutputHeaders.copy(record.headers());
        OutputHeaders.put(headers, HeaderNames.TASK_ID, retry.getTaskId());
        OutputHeaders.put(headers, HeaderNames.RESULT_ID, retry.getResultId());
        OutputHeaders.put(headers, HeaderNames.ATTEMPT, Integer.toString(retry.getNextAttempt()));
        OutputHeaders.put(headers, HeaderNames.DUE_AT, Instant.ofEpochMilli(retry.getDueAt()).toString());
        OutputHeaders.origin(headers, context.recordMetadata().orElse(null));
        context.forward(record.withValue(retry).withHeaders(headers));
    }
}
