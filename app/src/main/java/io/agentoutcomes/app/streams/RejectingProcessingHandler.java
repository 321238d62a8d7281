package io.agentoutcomes.app.streams;

import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record that a processor cannot process goes, as it was read, to {@code rejected-input} with Kafka Streams'
 * {@code __streams.errors.*} headers (exception, message, source topic, partition, offset), and the next one is
 * processed: one poison record never stops the pipeline. A schema registry outage is not the record's fault: the
 * thread fails and is replaced, and the record is processed again. A punctuation that fails has no record: it is
 * logged and the next one runs ({@link PunctuationFailures} counts them and ends a run of them).
 */
public final class RejectingProcessingHandler extends RejectingHandler implements ProcessingExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RejectingProcessingHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        if (Failures.isRegistryOutage(exception)) {
            LOG.warn("Schema registry unavailable in {} for {}-{}@{}: the record will be processed again ({})",
                    context.processorNodeId(), context.topic(), context.partition(), context.offset(), exception.getMessage());
            return Response.fail();
        }
        if (record == null) {
            // A punctuation (Kafka Streams passes no record): there is no input record to reject. Counted, and fatal
            // after a run of them, by PunctuationFailures.
            LOG.warn("Punctuation failed, processor node: {}, taskId: {}; counted in {}_total", context.processorNodeId(),
                    context.taskId(), PunctuationFailures.METER, exception);
            return Response.resume();
        }
        // as Kafka Streams' LogAndContinueProcessingExceptionHandler logs it
        LOG.warn("Exception caught during message processing, processor node: {}, taskId: {}, source topic: {}, "
                        + "source partition: {}, source offset: {}", context.processorNodeId(), context.taskId(),
                context.topic(), context.partition(), context.offset(), exception);
        return Response.resume(rejected(context, exception));
    }
}
