package io.agentoutcomes.app.streams;

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
    static final String VALUE_DROPPED_BYTES = "rejected.value.dropped.bytes";

    private ScrubbedRejections() {
    }

    static List<ProducerRecord<byte[], byte[]>> of(List<ProducerRecord<byte[], byte[]>> records) {
        return records.stream().map(ScrubbedRejections::scrubbed).toList();
    }

    private static ProducerRecord<byte[], byte[]> scrubbed(ProducerRecord<byte[], byte[]> record) {
        Headers headers = RejectedInput.copyHeaders(record.headers());
        byte[] value = record.value();
        if (value != null) {
            String text = new String(value, StandardCharsets.ISO_8859_1);
            if (!CredentialScrubber.scrub(text).equals(text)) {
                headers.add(VALUE_DROPPED_BYTES, String.valueOf(value.length).getBytes(StandardCharsets.UTF_8));
                headers.add(RejectedInput.REDACTED, "true".getBytes(StandardCharsets.UTF_8));
                value = null;
            }
        }
        return new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(), value, headers);
    }
}
