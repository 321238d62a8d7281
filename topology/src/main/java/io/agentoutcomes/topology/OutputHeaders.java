package io.agentoutcomes.topology;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The headers the pipeline adds to what it writes, beside every input header it carries (W3C {@code traceparent} and
 * {@code tracestate}, the identity headers, anything else): see docs/topics.md.
 */
public final class OutputHeaders {
    public static final String TASK_ID = "task-id";
    public static final String RESULT_ID = "result-id";
    /** On {@code retry-ready}: the attempt to run next; on {@code dead-letter}: the attempt that stopped. */
    public static final String ATTEMPT = "attempt";
    /** On {@code retry-ready}: when the retry was due, ISO-8601 UTC. */
    public static final String DUE_AT = "due-at";
    /** Where the record first entered the pipeline: its input topic, partition and offset. */
    public static final String ORIGIN_TOPIC = "origin-topic";
    public static final String ORIGIN_PARTITION = "origin-partition";
    public static final String ORIGIN_OFFSET = "origin-offset";

    private OutputHeaders() {
    }

    /** A copy of {@code headers} that can be changed without changing the record other branches see. */
    public static Headers copy(Headers headers) {
        return new RecordHeaders(headers == null ? new org.apache.kafka.common.header.Header[0] : headers.toArray());
    }

    /** Sets {@code name} to {@code value}, replacing any header of that name. */
    public static Headers put(Headers headers, String name, String value) {
        headers.remove(name);
        if (value != null) {
            headers.add(name, value.getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    /** Adds the origin headers for {@code source}, unless the record already has them (it came through ingestion). */
    public static Headers origin(Headers headers, RecordMetadata source) {
        if (source != null && headers.lastHeader(ORIGIN_TOPIC) == null) {
            put(headers, ORIGIN_TOPIC, source.topic());
            put(headers, ORIGIN_PARTITION, Integer.toString(source.partition()));
            put(headers, ORIGIN_OFFSET, Long.toString(source.offset()));
        }
        return headers;
    }
}
