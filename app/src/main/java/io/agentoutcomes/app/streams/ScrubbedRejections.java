package io.agentoutcomes.app.streams;

import io.agentoutcomes.topology.InputLimits;
import io.agentoutcomes.topology.ingest.CredentialScrubber;
import io.agentoutcomes.topology.ingest.RejectedInput;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The records Kafka Streams' handlers build for {@code rejected-input}, made safe to keep: headers copied as
 * ingestion copies them (credential headers replaced, long values cut), and a value that shows anything
 * credential-like dropped (it is binary, Avro, so it cannot be edited in place), keeping its length.
 */
final class ScrubbedRejections {
    private ScrubbedRejections() {
    }

    /** The records, each value longer than {@code maxValueBytes} or showing a credential replaced by its length. */
    static List<ProducerRecord<byte[], byte[]>> of(List<ProducerRecord<byte[], byte[]>> records, int maxValueBytes) {
        return records.stream().map(record -> scrubbed(record, maxValueBytes)).toList();
    }

    /** The input limit the service hands its handlers through the streams configuration. */
    static int maxValueBytes(java.util.Map<String, ?> configs) {
        Object limit = configs.get(InputLimits.MAX_RECORD_BYTES_CONFIG);
        return limit == null ? InputLimits.defaults().maxRecordBytes() : Integer.parseInt(limit.toString());
    }

    private static ProducerRecord<byte[], byte[]> scrubbed(ProducerRecord<byte[], byte[]> record, int maxValueBytes) {
        Headers headers = RejectedInput.copyHeaders(record.headers());
        byte[] value = record.value();
        if (value != null && value.length > maxValueBytes) {
            value = RejectedInput.dropValue(value, headers);
        } else if (value != null) {
            String text = new String(value, StandardCharsets.ISO_8859_1);
            if (!CredentialScrubber.scrub(text).equals(text)) {
                headers.add(RejectedInput.REDACTED, "true".getBytes(StandardCharsets.UTF_8));
                value = RejectedInput.dropValue(value, headers);
            }
        }
        return new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(), value, headers);
    }
}
