package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * What a JSON record on {@code rejected-input} carries: its value and its own headers with credentials replaced by
 * {@value CredentialScrubber#REDACTED} ({@link CredentialScrubber}) and header values cut at
 * {@value #MAX_HEADER_BYTES} bytes, plus headers saying why. The {@code __streams.errors.*} names are those Kafka
 * Streams gives its dead-letter records (undecodable Avro lands there too), so every rejected record reads the same
 * way; {@value #REASON} adds a short kind for counting and {@value #REDACTED} marks a record whose value or headers
 * had credentials replaced.
 */
public final class RejectedInput {
    public static final String EXCEPTION = "__streams.errors.exception";
    public static final String MESSAGE = "__streams.errors.message";
    public static final String TOPIC = "__streams.errors.topic";
    public static final String PARTITION = "__streams.errors.partition";
    public static final String OFFSET = "__streams.errors.offset";
    public static final String REASON = "rejected.reason";
    public static final String REDACTED = "rejected.redacted";
    /** The length of a value not kept (too large, or holding credentials that cannot be cut out of binary). */
    public static final String VALUE_DROPPED_BYTES = "rejected.value.dropped.bytes";
    /** The length of a key not kept (longer than {@value InputLimits#MAX_KEY_BYTES} bytes). */
    public static final String KEY_DROPPED_BYTES = "rejected.key.dropped.bytes";
    /** How many of the record's headers were not kept (past {@value #MAX_KEPT_HEADER_BYTES} bytes in all, or a name too long). */
    public static final String HEADERS_DROPPED = "rejected.headers.dropped";
    /** Longer header values are cut there, ending with a note of their full length. */
    public static final int MAX_HEADER_BYTES = 1024;
    /** The record's own headers kept, names and values, in all; the pipeline's ({@code __streams.errors.*}, {@code rejected.*}) come on top. */
    public static final int MAX_KEPT_HEADER_BYTES = 16 * 1024;

    private RejectedInput() {
    }

    /**
     * The record's headers as rejected-input gets them: credentials replaced, long values cut, and no more than
     * {@value #MAX_KEPT_HEADER_BYTES} bytes of them (a header named with more than {@value #MAX_HEADER_BYTES}
     * characters is not kept; {@value #HEADERS_DROPPED} counts those left out). A header named as the pipeline names
     * its own ({@code __streams.errors.*}, {@code rejected.*}) is the producer's here, and not kept.
     */
    public static Headers copyHeaders(Headers input) {
        return copyHeaders(input, false);
    }

    /**
     * As {@link #copyHeaders(Headers)}, for a record Kafka Streams' handlers built: it appended the pipeline's own
     * headers ({@code __streams.errors.*}) after the input's, so the last of each such name is kept whatever the
     * budget; an earlier one is the producer's, and is not kept (nor is any {@code rejected.*}: the pipeline adds those
     * after copying).
     */
    public static Headers copyHandlerHeaders(Headers handlerRecord) {
        return copyHeaders(handlerRecord, true);
    }

    private static Headers copyHeaders(Headers input, boolean pipelineHeadersLast) {
        Header[] all = input.toArray();
        Map<String, Integer> lastOwn = new HashMap<>();
        for (int i = 0; pipelineHeadersLast && i < all.length; i++) {
            if (all[i].key().startsWith("__streams.errors.")) {
                lastOwn.put(all[i].key(), i);
            }
        }
        Headers copy = new RecordHeaders();
        boolean redacted = false;
        int kept = 0;
        int dropped = 0;
        for (int i = 0; i < all.length; i++) {
            Header header = all[i];
            boolean own = lastOwn.getOrDefault(header.key(), -1) == i;
            int size = header.key().length() + Math.min(header.value() == null ? 0 : header.value().length, MAX_HEADER_BYTES + 64);
            if (!own && (isPipelines(header.key()) || header.key().length() > MAX_HEADER_BYTES
                    || kept + size > MAX_KEPT_HEADER_BYTES)) {
                dropped++;
                continue;
            }
            if (!own) {
                kept += size;
            }
            byte[] value = header.value();
            if (value != null) {
                String text = new String(value, StandardCharsets.UTF_8);
                String scrubbed = CredentialScrubber.isCredentialName(header.key()) ? CredentialScrubber.REDACTED
                        : CredentialScrubber.scrub(text);
                if (!scrubbed.equals(text)) {
                    redacted = true;
                    value = scrubbed.getBytes(StandardCharsets.UTF_8);
                }
                value = bounded(value);
            }
            copy.add(header.key(), value);
        }
        if (redacted) {
            add(copy, REDACTED, "true");
        }
        if (dropped > 0) {
            add(copy, HEADERS_DROPPED, String.valueOf(dropped));
        }
        return copy;
    }

    private static boolean isPipelines(String name) {
        return name.startsWith("__streams.errors.") || name.startsWith("rejected.");
    }

    /** The key as rejected-input gets it: none, its length in {@value #KEY_DROPPED_BYTES}, when longer than the key limit. */
    public static byte[] boundedKey(byte[] key, Headers headers) {
        if (key == null || key.length <= InputLimits.MAX_KEY_BYTES) {
            return key;
        }
        add(headers, KEY_DROPPED_BYTES, String.valueOf(key.length));
        return null;
    }

    /**
     * The value as rejected-input gets it: provider headers that are not kept removed from JSON that parses
     * ({@link RawHeaderRedactor#scrubJson}), then credential-like text replaced in whatever is left, parseable or
     * not; the bytes as they came when there was nothing to replace.
     */
    static byte[] scrubValue(byte[] value, Headers headers) {
        if (value == null) {
            return null;
        }
        byte[] scrubbed = scrub(scrubBase64Data(value));
        if (scrubbed == value) {
            return value;
        }
        add(headers, REDACTED, "true");
        return scrubbed;
    }

    /** Raw headers and credential-like text removed; the same array when there was nothing to remove. */
    private static byte[] scrub(byte[] value) {
        byte[] withoutRawHeaders = RawHeaderRedactor.scrubJson(value).orElse(value);
        String text = new String(withoutRawHeaders, StandardCharsets.UTF_8);
        String scrubbed = CredentialScrubber.scrub(text);
        return withoutRawHeaders == value && scrubbed.equals(text) ? value : scrubbed.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A structured CloudEvent with its {@code data_base64} scrubbed as a value is, encoded again: base64 hides a
     * credential from the text scrubber. The same array when it is no such event or there was nothing to remove.
     */
    private static byte[] scrubBase64Data(byte[] value) {
        JsonNode root;
        try {
            root = value.length > JsonLimits.MAX_DOCUMENT_BYTES ? null : BoundedJson.MAPPER.readTree(value);
        } catch (IOException | RuntimeException notJson) {
            return value;
        }
        if (root == null || !root.path("data_base64").isTextual()) {
            return value;
        }
        byte[] data;
        try {
            data = Base64.getDecoder().decode(root.get("data_base64").asText());
        } catch (IllegalArgumentException notBase64) {
            return value;
        }
        byte[] scrubbed = scrub(data);
        if (scrubbed == data) {
            return value;
        }
        ((ObjectNode) root).put("data_base64", Base64.getEncoder().encodeToString(scrubbed));
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Nothing of a value too large to keep but its length, in the header {@value #VALUE_DROPPED_BYTES}. */
    public static byte[] dropValue(byte[] value, Headers headers) {
        add(headers, VALUE_DROPPED_BYTES, String.valueOf(value.length));
        return null;
    }

    static void describe(Headers headers, Exception error, String reason, RecordMetadata source) {
        add(headers, EXCEPTION, error.getClass().getName());
        add(headers, MESSAGE, CredentialScrubber.scrub(String.valueOf(error.getMessage())));
        add(headers, REASON, reason);
        add(headers, TOPIC, source.topic());
        add(headers, PARTITION, String.valueOf(source.partition()));
        add(headers, OFFSET, String.valueOf(source.offset()));
    }

    static void add(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, bounded(value.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] bounded(byte[] value) {
        if (value.length <= MAX_HEADER_BYTES) {
            return value;
        }
        byte[] note = ("…[truncated: " + value.length + " bytes]").getBytes(StandardCharsets.UTF_8);
        byte[] cut = Arrays.copyOf(value, MAX_HEADER_BYTES + note.length);
        System.arraycopy(note, 0, cut, MAX_HEADER_BYTES, note.length);
        return cut;
    }
}
