package io.agentoutcomes.topology;

import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.topology.ingest.InputHeaders;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The headers the pipeline adds to what it writes, beside every input header it carries (W3C {@code traceparent} and
 * {@code tracestate}, the identity headers, anything else): see docs/topics.md.
 */
public final class OutputHeaders {
    private OutputHeaders() {
    }

    /** A copy of {@code headers} that can be changed without changing the record other branches see. */
    public static Headers copy(Headers headers) {
        return new RecordHeaders(headers == null ? new Header[0] : headers.toArray());
    }

    /** Sets {@code name} to {@code value}, replacing any header of that name. */
    public static Headers put(Headers headers, String name, String value) {
        headers.remove(name);
        if (value != null) {
            headers.add(name, value.getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    /**
     * Adds the origin headers for {@code source}, unless the record already has them: every input record has them from
     * where the pipeline read it ({@link InputHeaders}), so this names {@code source} only for records of a stage run
     * alone.
     */
    public static Headers origin(Headers headers, RecordMetadata source) {
        if (source != null && headers.lastHeader(HeaderNames.ORIGIN_TOPIC) == null) {
            put(headers, HeaderNames.ORIGIN_TOPIC, source.topic());
            put(headers, HeaderNames.ORIGIN_PARTITION, Integer.toString(source.partition()));
            put(headers, HeaderNames.ORIGIN_OFFSET, Long.toString(source.offset()));
        }
        return headers;
    }
}
