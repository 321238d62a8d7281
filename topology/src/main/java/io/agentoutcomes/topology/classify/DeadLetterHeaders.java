package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.topology.OutputHeaders;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/** A stopped outcome with the headers that identify it and where it came from. */
public final class DeadLetterHeaders
        implements FixedKeyProcessor<String, ClassifiedOutcome, ClassifiedOutcome> {
    private FixedKeyProcessorContext<String, ClassifiedOutcome> context;

    @Override
    public void init(FixedKeyProcessorContext<String, ClassifiedOutcome> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, ClassifiedOutcome> record) {
        ClassifiedOutcome outcome = record.value();
        Headers headers = OutputHeaders.copy(record.headers());
        OutputHeaders.put(headers, HeaderNames.TASK_ID, outcome.getTaskId());
        OutputHeaders.put(headers, HeaderNames.RESULT_ID, outcome.getResultId());
        OutputHeaders.put(headers, HeaderNames.ATTEMPT, Integer.toString(outcome.getAttempt()));
        OutputHeaders.origin(headers, context.recordMetadata().orElse(null));
        context.forward(record.withHeaders(headers));
    }
}
