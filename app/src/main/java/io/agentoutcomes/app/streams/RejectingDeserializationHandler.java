package io.agentoutcomes.app.streams;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An undecodable record (not the Confluent wire format, an unknown schema id, corrupt Avro) goes to
 * {@code rejected-input} with Kafka Streams' {@code __streams.errors.*} headers, and the next one is processed. A
 * record that cannot be decoded because the schema registry is down is not bad: the stream thread fails instead, and
 * is replaced (see {@link StreamThreadFailureHandler}), so the record is read again once the registry answers.
 */
public final class RejectingDeserializationHandler extends RejectingHandler implements DeserializationExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RejectingDeserializationHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        if (Failures.isRegistryOutage(exception)) {
            LOG.warn("Schema registry unavailable while decoding {}-{}@{}: pausing this stream thread, the record will be "
                    + "read again ({})", record.topic(), record.partition(), record.offset(), exception.getMessage());
            return Response.fail();
        }
        // as Kafka Streams' LogAndContinueExceptionHandler logs it
        LOG.warn("Exception caught during Deserialization, taskId: {}, topic: {}, partition: {}, offset: {}",
                context.taskId(), record.topic(), record.partition(), record.offset(), exception);
        return Response.resume(rejected(context, exception));
    }
}
