package io.agentoutcomes.client;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * The record headers the pipeline reads identity from when the record itself lacks it (docs/topics.md#headers).
 * The publisher sets them on every record it sends, so a consumer of the raw topics can route without decoding.
 */
public final class IdentityHeaders {
    public static final String AGENT_ID = "agent-id";
    public static final String TASK_ID = "task-id";
    public static final String JOB_ID = "job-id";
    public static final String NODE_ID = "node-id";
    public static final String ATTEMPT = "attempt";
    public static final String RESULT_ID = "result-id";
    /** {@code vat-envelope}, {@code flatagents} or {@code review-agent}: a JSON record's dialect, skipping shape detection. */
    public static final String DIALECT = "dialect";

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
