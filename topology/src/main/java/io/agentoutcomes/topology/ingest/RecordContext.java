package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * What a record carries besides its value: key, headers, where it came from, and the CloudEvent it was wrapped in if
 * any. Identity a dialect lacks comes from here: the record headers first ({@code agent-id}, {@code task-id},
 * {@code job-id}, {@code node-id}, {@code attempt}, {@code result-id}, {@code dialect}), then the CloudEvent's
 * attributes ({@code id}, {@code source}, {@code subject}: which field each supplies is the normalizer's to say),
 * then the record key.
 *
 * @param cloudEvent the CloudEvent the value was unwrapped from ({@link CloudEvents}), or null
 */
public record RecordContext(String key, Headers headers, String topic, int partition, long offset, Instant timestamp,
                            CloudEvent cloudEvent) {
    /** A record not wrapped in a CloudEvent. */
    public RecordContext(String key, Headers headers, String topic, int partition, long offset, Instant timestamp) {
        this(key, headers, topic, partition, offset, timestamp, null);
    }

    /** This context with the CloudEvent the value was unwrapped from. */
    RecordContext withCloudEvent(CloudEvent event) {
        return new RecordContext(key, headers, topic, partition, offset, timestamp, event);
    }

    /** The CloudEvent's {@code id}, or null. */
    String cloudEventId() {
        return cloudEvent == null ? null : cloudEvent.id();
    }

    /** The CloudEvent's {@code source}, or null. */
    String cloudEventSource() {
        return cloudEvent == null ? null : cloudEvent.source();
    }

    /** The CloudEvent's {@code subject}, or null. */
    String cloudEventSubject() {
        return cloudEvent == null ? null : cloudEvent.subject();
    }

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

    /**
     * A field's value, else the header's, else the CloudEvent attribute's ({@code fromCloudEvent}, null when there is
     * none), else the key's; an error naming each place when none has one.
     */
    String fieldHeaderOrKey(String fieldValue, String header, String fromCloudEvent, String cloudEventAttribute, String what) {
        String explicit = fieldHeaderOrCloudEvent(fieldValue, header, fromCloudEvent);
        if (explicit != null) {
            return explicit;
        }
        if (key != null && !key.isBlank()) {
            return key;
        }
        throw new InvalidInputException(MISSING_FIELD, what + " is missing: not in the record, no '" + header
                + "' header, " + (cloudEvent == null ? "" : "no CloudEvents " + cloudEventAttribute + ", ") + "no record key");
    }

    /** As {@link #fieldHeaderOrKey} without the key. */
    String fieldOrHeader(String fieldValue, String header, String fromCloudEvent, String cloudEventAttribute, String what) {
        String explicit = fieldHeaderOrCloudEvent(fieldValue, header, fromCloudEvent);
        if (explicit == null) {
            throw new InvalidInputException(MISSING_FIELD, what + " is missing: not in the record" + (cloudEvent == null
                    ? " and no '" + header + "' header" : ", no '" + header + "' header, no CloudEvents " + cloudEventAttribute));
        }
        return explicit;
    }

    /** A field's value, else the header's; an error naming both when neither has one. */
    String fieldOrHeader(String fieldValue, String header, String what) {
        return fieldOrHeader(fieldValue, header, null, null, what);
    }

    private String fieldHeaderOrCloudEvent(String fieldValue, String header, String fromCloudEvent) {
        String explicit = fieldOrHeaderOrNull(fieldValue, header);
        return explicit != null ? explicit : fromCloudEvent;
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
        String fromHeader = header(HeaderNames.ATTEMPT);
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
     * The result id: the field's, else the {@code result-id} header's, else the CloudEvent's {@code id} (a publisher
     * re-sending an event keeps its id), else the record's position ({@code topic/partition/offset}), which is stable
     * when the record is processed again.
     */
    String resultId(String fieldValue) {
        String explicit = fieldHeaderOrCloudEvent(fieldValue, HeaderNames.RESULT_ID, cloudEventId());
        return explicit != null ? explicit : topic + "/" + partition + "/" + offset;
    }
}
