package io.agentoutcomes.app.streams;

import io.agentoutcomes.topology.ingest.CredentialScrubber;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.ingest.InvalidInputException;
import io.agentoutcomes.topology.ingest.RejectedInput;
import io.agentoutcomes.topology.intake.BoundedDeserializer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

/**
 * The records Kafka Streams' handlers build for {@code rejected-input}, made safe to keep: headers copied as
 * ingestion copies them (credential headers replaced, long values cut, a bounded number of bytes in all), a key longer
 * than an input key may be dropped and a value that shows anything credential-like dropped (it is binary, Avro, so it
 * cannot be edited in place), keeping their lengths; and, where the pipeline refused the record for a reason JSON input
 * would be refused for, {@code rejected.reason} saying it.
 */
final class ScrubbedRejections {
    private ScrubbedRejections() {
    }

    /** The records, each value longer than {@code maxValueBytes} or showing a credential replaced by its length. */
    static List<ProducerRecord<byte[], byte[]>> of(List<ProducerRecord<byte[], byte[]>> records, int maxValueBytes,
                                                   Exception exception) {
        String reason = reason(exception);
        return records.stream().map(record -> scrubbed(record, maxValueBytes, reason)).toList();
    }

    /** The short reason of a refusal by the pipeline's bounds ({@code too-large}, {@code out-of-range}, ...), or null. */
    static String reason(Throwable exception) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof BoundedDeserializer.RefusedValueException refused) {
                return refused.reason();
            }
            if (cause instanceof InvalidInputException invalid) {
                return invalid.kind().label();
            }
        }
        return null;
    }

    /** The input limit the service hands its handlers through the streams configuration. */
    static int maxValueBytes(Map<String, ?> configs) {
        Object limit = configs.get(InputLimits.MAX_RECORD_BYTES_CONFIG);
        return limit == null ? InputLimits.defaults().maxRecordBytes() : Integer.parseInt(limit.toString());
    }

    private static ProducerRecord<byte[], byte[]> scrubbed(ProducerRecord<byte[], byte[]> record, int maxValueBytes,
                                                           String reason) {
        Headers headers = RejectedInput.copyHandlerHeaders(record.headers());
        if (reason != null) {
            headers.add(RejectedInput.REASON, reason.getBytes(StandardCharsets.UTF_8));
        }
        byte[] key = RejectedInput.boundedKey(record.key(), headers);
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
        return new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), key, value, headers);
    }
}
