package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.InvalidInputException.Kind.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.InvalidInputException.Kind.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.InvalidInputException.Kind.WRONG_TYPE;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * What a record carries besides its value: key, headers, and where it came from. Identity a dialect lacks comes from
 * here: the record headers first ({@code agent-id}, {@code task-id}, {@code job-id}, {@code node-id},
 * {@code attempt}, {@code result-id}, {@code dialect}), then the record key.
 */
public record RecordContext(String key, Headers headers, String topic, int partition, long offset, Instant timestamp) {
    public static final String AGENT_ID = "agent-id";
    public static final String TASK_ID = "task-id";
    public static final String JOB_ID = "job-id";
    public static final String NODE_ID = "node-id";
    public static final String ATTEMPT = "attempt";
    public static final String RESULT_ID = "result-id";
    public static final String DIALECT = "dialect";

    /** The last value of a header as UTF-8 text, or null. */
    public String header(String name) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(name);
        if (header == null || header.value() == null) {
            return null;
        }
        String value = new String(header.value(), StandardCharsets.UTF_8).trim();
        return value.isEmpty() ? null : value;
    }

    /** A field's value, else the header's, else the key's; an error naming all three when none has one. */
    String fieldHeaderOrKey(String fieldValue, String header, String what) {
        if (fieldValue != null) {
            return fieldValue;
        }
        String fromHeader = header(header);
        if (fromHeader != null) {
            return fromHeader;
        }
        if (key != null && !key.isBlank()) {
            return key;
        }
        throw new InvalidInputException(MISSING_FIELD, what + " is missing: not in the record, no '" + header
                + "' header, no record key");
    }

    /** A field's value, else the header's; an error naming both when neither has one. */
    String fieldOrHeader(String fieldValue, String header, String what) {
        if (fieldValue != null) {
            return fieldValue;
        }
        String fromHeader = header(header);
        if (fromHeader == null) {
            throw new InvalidInputException(MISSING_FIELD, what + " is missing: not in the record and no '" + header + "' header");
        }
        return fromHeader;
    }

    /** A field's value, else the header's, else null. */
    String fieldOrHeaderOrNull(String fieldValue, String header) {
        return fieldValue != null ? fieldValue : header(header);
    }

    /** The attempt number: the field's, else the {@code attempt} header's, else 0. */
    int attempt(Integer fieldValue) {
        if (fieldValue != null) {
            return fieldValue;
        }
        String fromHeader = header(ATTEMPT);
        if (fromHeader == null) {
            return 0;
        }
        try {
            int attempt = Integer.parseInt(fromHeader);
            if (attempt < 0) {
                throw new InvalidInputException(OUT_OF_RANGE, "attempt header is " + attempt + ": must not be negative");
            }
            return attempt;
        } catch (NumberFormatException e) {
            throw new InvalidInputException(WRONG_TYPE, "attempt header is '" + fromHeader + "': expected a whole number");
        }
    }

    /**
     * The result id: the field's, else the {@code result-id} header's, else the record's position
     * ({@code topic/partition/offset}), which is stable when the record is processed again.
     */
    String resultId(String fieldValue) {
        String explicit = fieldOrHeaderOrNull(fieldValue, RESULT_ID);
        return explicit != null ? explicit : topic + "/" + partition + "/" + offset;
    }
}
