package io.agentoutcomes.topology.ingest;

import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The headers an accepted input record carries on to everything the pipeline writes for it. The producer's own, with
 * credentials replaced as rejected records get them: the value of a header named like a credential
 * ({@code Authorization}, {@code X-Api-Key}, {@code Cookie}, ...) becomes {@value CredentialScrubber#REDACTED}, and
 * credential-like text in other values is replaced ({@link CredentialScrubber}). A producer's own {@code origin-*}
 * headers are dropped, never passed on; the provenance headers {@code origin-topic}, {@code -partition},
 * {@code -offset} are stamped with where the pipeline read the record only where a caller gives that position: where
 * the record's own position will be lost (a JSON input's canonical record, a record re-keyed through a repartition
 * topic), not on every record (a dead letter gets its origin where it is written).
 * <p>
 * Per record this is, per header name, a comparison with the name the last record had at the same position (a look-up
 * of remembered names only for another name) and, only for a value holding a character a
 * credential needs ({@code :}, {@code =}, a space) or a token's prefix, the scrubber's patterns. Headers are copied only
 * when a credential is found. One instance per processor; not thread-safe.
 */
public final class InputHeaders {
    private static final int NAMES_REMEMBERED = 512;
    private static final byte[] REDACTED = CredentialScrubber.REDACTED.getBytes(StandardCharsets.UTF_8);
    private static final String ORIGIN = "origin-";
    private static final int LAST_NAMES = 16;
    private final Map<String, Boolean> credentialNames = new HashMap<>();
    /** The header names of the last record, by position, and whether each is a credential's. */
    private final String[] lastNames = new String[LAST_NAMES];
    private final boolean[] lastCredential = new boolean[LAST_NAMES];
    /** The partition records were last read from, and its origin headers' values. */
    private String topic;
    private int partition = -1;
    private byte[] topicBytes;
    private byte[] partitionBytes;

    /**
     * {@code headers} scrubbed of credentials and stamped with {@code source} (the record's own position): the same
     * instance, changed in place, unless a credential had to be replaced (then a copy).
     */
    public Headers accept(Headers headers, RecordMetadata source) {
        Headers accepted = headers == null ? new RecordHeaders() : scrubbed(headers);
        removeOrigin(accepted);
        return stamp(accepted, source);
    }

    /**
     * Stamps {@code accepted} (headers {@link #accept}ed without a source, so without origin headers) with
     * {@code source}, the record's own position; nothing when {@code source} is null.
     */
    public Headers stamp(Headers accepted, RecordMetadata source) {
        if (source != null) {
            if (!source.topic().equals(topic) || source.partition() != partition) {
                topic = source.topic();
                partition = source.partition();
                topicBytes = topic.getBytes(StandardCharsets.UTF_8);
                partitionBytes = Integer.toString(partition).getBytes(StandardCharsets.UTF_8);
            }
            // the topic's and partition's bytes shared by every record of the partition: a header's value is not changed
            accepted.add(HeaderNames.ORIGIN_TOPIC, topicBytes);
            accepted.add(HeaderNames.ORIGIN_PARTITION, partitionBytes);
            accepted.add(HeaderNames.ORIGIN_OFFSET, decimal(source.offset()));
        }
        return accepted;
    }

    /** Drops a producer's own {@code origin-*} headers: one pass, not one per name. */
    private static void removeOrigin(Headers headers) {
        for (Iterator<Header> all = headers.iterator(); all.hasNext(); ) {
            String key = all.next().key();
            if (key.startsWith(ORIGIN) && (key.equals(HeaderNames.ORIGIN_TOPIC) || key.equals(HeaderNames.ORIGIN_PARTITION)
                    || key.equals(HeaderNames.ORIGIN_OFFSET))) {
                all.remove();
            }
        }
    }

    /** A non-negative number's decimal digits in ASCII, without a String between. */
    static byte[] decimal(long value) {
        if (value < 0) {
            return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] bytes = new byte[digits];
        long rest = value;
        for (int i = digits - 1; i >= 0; i--) {
            bytes[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return bytes;
    }

    private Headers scrubbed(Headers headers) {
        Header[] all = null;
        int position = 0;
        for (Header header : headers) {
            if (replacement(header, position++) != null) {
                all = headers.toArray();
                break;
            }
        }
        if (all == null) {
            return headers;
        }
        RecordHeaders copy = new RecordHeaders();
        for (int i = 0; i < all.length; i++) {
            byte[] replaced = replacement(all[i], i);
            copy.add(all[i].key(), replaced != null ? replaced : all[i].value());
        }
        return copy;
    }

    /** The value a header gets instead of its own, or null when its own holds no credential. */
    private byte[] replacement(Header header, int position) {
        byte[] value = header.value();
        if (value == null) {
            return null;
        }
        if (isCredentialName(header.key(), position)) {
            return Arrays.equals(value, REDACTED) ? null : REDACTED;
        }
        if (!mayHoldCredential(value)) {
            return null;
        }
        String text = new String(value, StandardCharsets.UTF_8);
        String scrubbed = CredentialScrubber.scrub(text);
        return scrubbed.equals(text) ? null : scrubbed.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether a header name is a credential's. A producer sends the same names in the same order record after record,
     * and each record's names are new strings whose hash is not yet computed: the name last seen at the same position
     * is compared first (equal strings compare as a memory comparison), and only another name is hashed and looked up.
     */
    private boolean isCredentialName(String name, int position) {
        if (position < LAST_NAMES && name.equals(lastNames[position])) {
            return lastCredential[position];
        }
        boolean known = isCredentialName(name);
        if (position < LAST_NAMES) {
            lastNames[position] = name;
            lastCredential[position] = known;
        }
        return known;
    }

    private boolean isCredentialName(String name) {
        Boolean known = credentialNames.get(name);
        if (known == null) {
            if (credentialNames.size() >= NAMES_REMEMBERED) {
                credentialNames.clear();
            }
            known = CredentialScrubber.isCredentialName(name);
            credentialNames.put(name, known);
        }
        return known;
    }

    /**
     * Whether the scrubber could find anything: a {@code name: value} or {@code name=value} pair, an auth scheme and its
     * token, or the prefix of a token it recognises alone ({@code sk-}, {@code eyJ}, {@code AKIA}, {@code ASIA},
     * {@code gh?_}, {@code xox}, {@code AIza}). A W3C {@code traceparent} has none of these.
     */
    static boolean mayHoldCredential(byte[] value) {
        for (int i = 0; i < value.length; i++) {
            byte b = value[i];
            if (b == ':' || b == '=' || b == ' ' || b == '\t') {
                return true;
            }
            if (i + 2 < value.length) {
                byte c = value[i + 1];
                byte d = value[i + 2];
                if (b == 's' && c == 'k' && d == '-' || b == 'e' && c == 'y' && d == 'J' || b == 'x' && c == 'o' && d == 'x'
                        || b == 'g' && c == 'h' && i + 3 < value.length && value[i + 3] == '_'
                        || (b == 'A' && (c == 'K' || c == 'S' || c == 'I') && (d == 'I' || d == 'z'))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The bytes of every header name (its characters) and value. */
    public static int headerBytes(Headers headers) {
        if (headers == null) {
            return 0;
        }
        long bytes = 0;
        for (Header header : headers) {
            bytes += header.key().length() + (header.value() == null ? 0 : header.value().length);
        }
        return (int) Math.min(bytes, Integer.MAX_VALUE);
    }
}
