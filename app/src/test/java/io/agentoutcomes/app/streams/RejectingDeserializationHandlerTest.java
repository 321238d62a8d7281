package io.agentoutcomes.app.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchException;

import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.intake.BoundedDeserializer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.internals.DefaultErrorHandlerContext;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/**
 * What the deserialization handler writes to rejected-input for an Avro record the pipeline refuses: never more than
 * the broker takes (a key or headers of hundreds of kilobytes made the rejection itself too large to write), with the
 * reason JSON input would get.
 */
class RejectingDeserializationHandlerTest {

    private static final byte[] KEY = "k".repeat(700_000).getBytes(StandardCharsets.UTF_8);

    /** A record with a key of 700 kB and 1.6 MB of headers, a credential among them. */
    private static ConsumerRecord<byte[], byte[]> hostile() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("Authorization", "Bearer sk-hostile-0123456789SECRET".getBytes(StandardCharsets.UTF_8));
        headers.add("baggage", "b".repeat(600_000).getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 2_000; i++) {
            headers.add("h-" + i, "v".repeat(500).getBytes(StandardCharsets.UTF_8));
        }
        headers.add("rejected.reason", "forged".getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>(TopicNames.AGENT_RESULTS, 1, 42L, 0L, TimestampType.CREATE_TIME, KEY.length, 3, KEY,
                new byte[] {0, 0, 0}, headers, Optional.empty());
    }

    private static ProducerRecord<byte[], byte[]> rejected(ConsumerRecord<byte[], byte[]> record, Exception exception) {
        RejectingDeserializationHandler handler = new RejectingDeserializationHandler();
        handler.configure(Map.of(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, TopicNames.REJECTED_INPUT,
                "input.max.record.bytes", "524288"));
        DeserializationExceptionHandler.Response response = handler.handleError(new DefaultErrorHandlerContext(null,
                record.topic(), record.partition(), record.offset(), record.headers(), "source", new TaskId(0, 1), 0L,
                record.key(), record.value()), record, exception);
        assertThat(response.deadLetterQueueRecords()).hasSize(1);
        return response.deadLetterQueueRecords().get(0);
    }

    private static Map<String, String> byName(ProducerRecord<byte[], byte[]> record) {
        Map<String, String> byName = new HashMap<>();
        for (Header header : record.headers()) {
            byName.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
        }
        return byName;
    }

    @Test
    void anUndecodableRecordWithAHugeKeyAndHugeHeadersIsRejectedWithoutThemSoTheRejectionCanBeWritten() {
        ProducerRecord<byte[], byte[]> copy = rejected(hostile(), new SerializationException("corrupt Avro"));

        assertThat(copy.key()).isNull();
        long headerBytes = 0;
        for (Header header : copy.headers()) {
            headerBytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
        }
        assertThat(headerBytes).isLessThan(32 * 1024);
        Map<String, String> byName = byName(copy);
        assertThat(byName).containsEntry("rejected.key.dropped.bytes", "700000").containsEntry("Authorization", "[redacted]")
                .containsEntry("__streams.errors.message", "corrupt Avro").containsEntry("__streams.errors.offset", "42")
                .containsKey("rejected.headers.dropped").doesNotContainKey("rejected.reason");
        assertThat(byName.get("baggage")).endsWith("…[truncated: 600000 bytes]");
        assertThat(byName.values()).noneMatch(v -> v != null && v.contains("SECRET"));
    }

    @Test
    void aRecordRefusedByTheInputBoundsCarriesTheReasonJsonInputWouldGet() {
        ConsumerRecord<byte[], byte[]> record = hostile();
        Exception refused = catchException(() -> BoundedDeserializer.keys(new StringDeserializer())
                .deserialize(record.topic(), record.headers(), record.key()));

        ProducerRecord<byte[], byte[]> copy = rejected(record, refused);

        assertThat(byName(copy)).containsEntry("rejected.reason", "too-large")
                .containsEntry("__streams.errors.message", "too-large: a key of 700000 bytes on agent-results is longer than 1024");
        assertThat(copy.headers().headers("rejected.reason")).hasSize(1);
    }
}
