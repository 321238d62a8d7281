package io.agentoutcomes.client;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * Setting and reading the record headers the pipeline reads identity from when the record itself lacks it (named in
 * {@link io.agentoutcomes.avro.HeaderNames}, docs/topics.md#headers). The publisher sets them on every record it
 * sends, so a consumer of the raw topics can route without decoding.
 */
public final class IdentityHeaders {
    private IdentityHeaders() {
    }

    /** Adds a header unless the value is null. */
    static void put(Headers headers, String name, Object value) {
        if (value != null) {
            headers.remove(name);
            headers.add(name, value.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The last value of a header as UTF-8 text, or null. */
    public static String get(Headers headers, String name) {
        var header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
