package io.agentoutcomes.topology.topic;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The headers the pipeline adds to what it writes, beside every input header it carries (W3C {@code traceparent} and
 * {@code tracestate}, the identity headers, anything else): see docs/topics.md. Provenance ({@code origin-*}) is
 * written once, on the record where it is used (a dead letter; a JSON input's canonical record), not on every output.
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
     * A copy of {@code input} with each of {@code names} set to the value at its index (null: removed), then, with
     * {@code withOrigin}, the origin headers for {@code source} unless {@code input} has them: what {@link #copy}, a
     * {@link #put} per name and {@link #origin} give, header for header and in the same order, in one pass over the
     * input's headers instead of one per name. Without {@code withOrigin}, any origin header of the input is left out:
     * provenance is written once, where it is used (a dead letter), not on every record made from the input. For the
     * router, which writes a dead letter or a retry for about one record in ten.
     */
    public static Headers copyWith(Headers input, RecordMetadata source, String[] names, String[] values,
            boolean withOrigin) {
        boolean hasOrigin = false;
        if (withOrigin && input != null) {
            for (Header header : input) {
                if (header.key().equals(HeaderNames.ORIGIN_TOPIC)) {
                    hasOrigin = true;
                    break;
                }
            }
        }
        boolean addOrigin = withOrigin && source != null && !hasOrigin;
        boolean dropOrigin = addOrigin || !withOrigin;
        RecordHeaders headers = new RecordHeaders();
        if (input != null) {
            for (Header header : input) {
                String key = header.key();
                if (!replaced(key, names) && !(dropOrigin && isOrigin(key))) {
                    headers.add(header);
                }
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (values[i] != null) {
                headers.add(names[i], values[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        if (addOrigin) {
            headers.add(HeaderNames.ORIGIN_TOPIC, source.topic().getBytes(StandardCharsets.UTF_8));
            headers.add(HeaderNames.ORIGIN_PARTITION, Integer.toString(source.partition()).getBytes(StandardCharsets.UTF_8));
            headers.add(HeaderNames.ORIGIN_OFFSET, Long.toString(source.offset()).getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }

    private static boolean replaced(String key, String[] names) {
        for (String name : names) {
            if (key.equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isOrigin(String key) {
        return key.equals(HeaderNames.ORIGIN_TOPIC) || key.equals(HeaderNames.ORIGIN_PARTITION)
                || key.equals(HeaderNames.ORIGIN_OFFSET);
    }

    /**
     * Adds the origin headers for {@code source}, unless the record already has them: every input record has them from
     * where the pipeline read it ({@code ingest.InputHeaders}), so this names {@code source} only for records of a stage run
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
