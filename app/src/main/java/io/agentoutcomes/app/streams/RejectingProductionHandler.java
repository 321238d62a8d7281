package io.agentoutcomes.app.streams;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A result that cannot be written because of the record itself (larger than the broker or producer accepts, or a
 * value the serializer refuses) sends its input record to {@code rejected-input} with the reason, and processing
 * goes on. Anything else (the broker, the registry, the network) is Kafka Streams' default: retry what is retriable,
 * fail the thread otherwise, so nothing is dropped for a failure that will pass.
 */
public final class RejectingProductionHandler extends RejectingHandler implements ProductionExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RejectingProductionHandler.class);
    private final DefaultProductionExceptionHandler defaults = new DefaultProductionExceptionHandler();

    @Override
    public void configure(Map<String, ?> configs) {
        super.configure(configs);
        defaults.configure(configs);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (exception instanceof RecordTooLargeException) {
            LOG.warn("A record for {} from {}-{}@{} is too large to write ({}); its input goes to {}", record.topic(),
                    context.topic(), context.partition(), context.offset(), exception.getMessage(), rejectedTopic());
            return Response.resume(rejected(context, exception));
        }
        return defaults.handleError(context, record, exception);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        if (Failures.isRegistryOutage(exception)) {
            return defaults.handleSerializationError(context, record, exception, origin);
        }
        LOG.warn("A record for {} from {}-{}@{} cannot be serialized ({}); its input goes to {}", record.topic(),
                context.topic(), context.partition(), context.offset(), exception.getMessage(), rejectedTopic());
        return Response.resume(rejected(context, exception));
    }
}
