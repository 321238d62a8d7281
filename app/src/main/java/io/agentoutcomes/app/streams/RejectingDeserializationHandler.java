package io.agentoutcomes.app.streams;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An undecodable record (not the Confluent wire format, an unknown schema id, corrupt Avro) goes to
 * {@code rejected-input} with Kafka Streams' {@code __streams.errors.*} headers, and the next one is processed. A
 * record that cannot be decoded because the schema registry is down is not bad: the stream thread fails instead, and
 * is replaced (see {@link StreamThreadFailureHandler}), so the record is read again once the registry answers.
 */
public final class RejectingDeserializationHandler extends LogAndContinueExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RejectingDeserializationHandler.class);
    private int maxValueBytes;

    @Override
    public void configure(java.util.Map<String, ?> configs) {
        super.configure(configs);
        maxValueBytes = ScrubbedRejections.maxValueBytes(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        if (Failures.isRegistryOutage(exception)) {
            LOG.warn("Schema registry unavailable while decoding {}-{}@{}: pausing this stream thread, the record will be "
                    + "read again ({})", record.topic(), record.partition(), record.offset(), exception.getMessage());
            return Response.fail();
        }
        Response response = super.handleError(context, record, exception);
        return Response.resume(ScrubbedRejections.of(response.deadLetterQueueRecords(), maxValueBytes, exception));
    }
}
