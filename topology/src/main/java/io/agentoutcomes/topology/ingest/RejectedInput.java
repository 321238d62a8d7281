package io.agentoutcomes.topology.ingest;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The headers a record on {@code rejected-input} carries besides its own. The {@code __streams.errors.*} names are
 * those Kafka Streams gives its dead-letter records (undecodable Avro lands there too), so every rejected record
 * reads the same way; {@value #REASON} adds a short kind for counting and {@value #REDACTED} marks a value whose
 * credential headers were removed.
 */
public final class RejectedInput {
    public static final String EXCEPTION = "__streams.errors.exception";
    public static final String MESSAGE = "__streams.errors.message";
    public static final String TOPIC = "__streams.errors.topic";
    public static final String PARTITION = "__streams.errors.partition";
    public static final String OFFSET = "__streams.errors.offset";
    public static final String REASON = "rejected.reason";
    public static final String REDACTED = "rejected.redacted";

    private RejectedInput() {
    }

    static void describe(Headers headers, Exception error, String reason, RecordMetadata source) {
        add(headers, EXCEPTION, error.getClass().getName());
        add(headers, MESSAGE, String.valueOf(error.getMessage()));
        add(headers, REASON, reason);
        add(headers, TOPIC, source.topic());
        add(headers, PARTITION, String.valueOf(source.partition()));
        add(headers, OFFSET, String.valueOf(source.offset()));
    }

    static void add(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
