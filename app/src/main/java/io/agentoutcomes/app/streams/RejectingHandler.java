package io.agentoutcomes.app.streams;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.internals.ExceptionHandlerUtils;

/**
 * What the handlers that send a bad record to {@code rejected-input} share: the topic (Kafka Streams' dead letter
 * queue setting) and the rejection itself, the input record as it was read with Kafka Streams'
 * {@code __streams.errors.*} headers, scrubbed of credentials and cut to what the broker takes.
 */
abstract class RejectingHandler {
    private String rejectedTopic;
    private int maxValueBytes;

    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        rejectedTopic = topic == null ? null : topic.toString();
        maxValueBytes = ScrubbedRejections.maxValueBytes(configs);
    }

    final String rejectedTopic() {
        return rejectedTopic;
    }

    /** The record to write to {@code rejected-input} for the input record being processed in {@code context}. */
    final List<ProducerRecord<byte[], byte[]>> rejected(ErrorHandlerContext context, Exception exception) {
        return ScrubbedRejections.of(ExceptionHandlerUtils.maybeBuildDeadLetterQueueRecords(rejectedTopic,
                context.sourceRawKey(), context.sourceRawValue(), context, exception), maxValueBytes, exception);
    }
}
