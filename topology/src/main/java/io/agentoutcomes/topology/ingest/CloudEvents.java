package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.INVALID_CLOUDEVENT;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Unwraps CloudEvents 1.0 (Dapr and Knative publishers wrap payloads in them) from a JSON input record, in either
 * content mode of the CloudEvents Kafka protocol binding: <em>structured</em> (a {@code content-type} header of
 * {@code application/cloudevents+json}, or none that says otherwise and a JSON object with a {@code specversion}
 * member, as Dapr writes it) with the data in {@code data} or {@code data_base64}; and <em>binary</em>
 * ({@code ce_specversion}, {@code ce_id}, {@code ce_source}, {@code ce_type}, ... headers, the data as the value,
 * its media type in {@code content-type}). The data is then read as an unwrapped value would be; the attributes go
 * into the {@link RecordContext}, where identity a dialect lacks is taken from. A record that is no CloudEvent
 * passes through at the cost of two header look-ups and one member look-up.
 *
 * <p>A hand-written reader rather than the CloudEvents Java SDK: it parses the envelope once, with the same bounded
 * parser as every JSON input ({@link JsonLimits}: duplicate keys, depth and number length refused), takes the data
 * out of the parsed tree without serializing it again, and refuses what the spec forbids with this project's
 * reasons. The SDK is the independent publisher in its tests.
 */
public final class CloudEvents {
    public static final String CONTENT_TYPE = "content-type";
    /** The binary mode's header prefix: {@code ce_id}, {@code ce_source}, ... */
    public static final String HEADER_PREFIX = "ce_";
    /** The structured mode's media type for the JSON event format, the only format this reader reads. */
    public static final String JSON_FORMAT = "application/cloudevents+json";
    /** W3C Trace Context headers, also carried as attributes of the CloudEvents distributed tracing extension. */
    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    private static final String MEDIA_TYPE_PREFIX = "application/cloudevents";
    private static final String SPECVERSION = "specversion";
    private static final String DATA = "data";
    private static final String DATA_BASE64 = "data_base64";
    private static final String DATACONTENTTYPE = "datacontenttype";
    private static final Set<String> STRING_ATTRIBUTES = Set.of(SPECVERSION, "id", "source", "type", "subject", "time",
            DATACONTENTTYPE, "dataschema");
    /** The spec: attribute names are lower-case ASCII letters and digits. */
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[a-z0-9]+");
    /** W3C Trace Context: version, trace id, parent id, flags (a later version may append fields). */
    private static final Pattern TRACEPARENT_FORMAT = Pattern.compile(
            "([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?");

    private CloudEvents() {
    }

    /**
     * The JSON object a normalizer reads: the CloudEvent's data, with the event in the context, when the record is a
     * CloudEvent; else the value itself. A malformed CloudEvent is {@code invalid-cloudevent}; data that is not a JSON
     * object is refused as the same bytes unwrapped would be ({@code unparseable-json}), its message saying so.
     */
    public static JsonInput read(byte[] value, RecordContext context) {
        String contentType = context.header(CONTENT_TYPE);
        String mediaType = mediaType(contentType);
        if (mediaType != null && mediaType.startsWith(MEDIA_TYPE_PREFIX)) {
            if (!mediaType.equals(JSON_FORMAT)) {
                throw invalid("content-type '" + contentType + "' is a CloudEvents format this service does not read: "
                        + "expected " + JSON_FORMAT + " (the batch format is not part of the Kafka binding)");
            }
            return structured(BoundedJson.parseObject(value), context);
        }
        if (context.headers() != null && context.headers().lastHeader(HEADER_PREFIX + SPECVERSION) != null) {
            return binary(value, mediaType, contentType, context);
        }
        JsonNode root = BoundedJson.parseObject(value);
        if (root.has(SPECVERSION)) {
            return structured(root, context);
        }
        return new JsonInput(root, context);
    }

    /**
     * The headers of the canonical record made from a CloudEvent: the input's, plus in structured mode each
     * attribute as its binary-mode {@code ce_*} header ({@value CredentialScrubber#REDACTED} for one named like a
     * credential), plus the event's {@code traceparent} and {@code tracestate}
     * as W3C headers when the record has no {@code traceparent} of its own and the event's is well formed; less
     * {@code content-type}, which named the media type of a JSON value the canonical record no longer is.
     */
    public static Headers canonicalHeaders(Headers input, CloudEvent event) {
        RecordHeaders headers = new RecordHeaders(input == null ? new Header[0] : input.toArray());
        headers.remove(CONTENT_TYPE);
        if (event.mode() == CloudEvent.Mode.STRUCTURED) {
            // the envelope was the value, never written anywhere: an attribute named like a credential stays unwritten
            event.attributes().forEach((name, text) -> set(headers, HEADER_PREFIX + name,
                    CredentialScrubber.isCredentialName(name) ? CredentialScrubber.REDACTED : text));
        }
        String traceparent = event.attribute(TRACEPARENT);
        if (headers.lastHeader(TRACEPARENT) == null && traceparent != null && isTraceparent(traceparent)) {
            set(headers, TRACEPARENT, traceparent);
            String tracestate = event.attribute(TRACESTATE);
            if (tracestate != null) {
                set(headers, TRACESTATE, tracestate);
            }
        }
        return headers;
    }

    /** Whether a value is a W3C {@code traceparent} a tracer would accept. */
    static boolean isTraceparent(String value) {
        var matcher = TRACEPARENT_FORMAT.matcher(value);
        if (!matcher.matches() || matcher.group(1).equals("ff") || matcher.group(2).matches("0+")
                || matcher.group(3).matches("0+")) {
            return false;
        }
        return !matcher.group(1).equals("00") || matcher.group(4) == null;
    }

    private static JsonInput structured(JsonNode envelope, RecordContext context) {
        Map<String, String> attributes = new LinkedHashMap<>();
        JsonNode data = null;
        JsonNode dataBase64 = null;
        for (Iterator<Map.Entry<String, JsonNode>> members = envelope.fields(); members.hasNext(); ) {
            Map.Entry<String, JsonNode> member = members.next();
            String name = member.getKey();
            JsonNode value = member.getValue();
            if (name.equals(DATA)) {
                data = value;
                continue;
            }
            if (value.isNull()) {
                continue; // the JSON format: null is an unset attribute
            }
            if (name.equals(DATA_BASE64)) {
                if (!value.isTextual()) {
                    throw invalid("data_base64 is " + value.getNodeType().name().toLowerCase(Locale.ROOT)
                            + ": expected a base64 string");
                }
                dataBase64 = value;
                continue;
            }
            attributes.put(name, attributeText(name, value));
        }
        String dataContentType = attributes.remove(DATACONTENTTYPE);
        CloudEvent event = event(CloudEvent.Mode.STRUCTURED, attributes, "");
        requireJson(dataContentType, "datacontenttype");
        JsonNode root;
        if (data != null && dataBase64 != null) {
            throw invalid("the event has both data and data_base64: the JSON format allows one");
        } else if (dataBase64 != null) {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(dataBase64.asText());
            } catch (IllegalArgumentException e) {
                throw invalid("data_base64 is not base64 (RFC 4648): " + e.getMessage());
            }
            root = data(() -> BoundedJson.parseObject(bytes), "data_base64");
        } else if (data != null) {
            JsonNode node = data;
            root = data(() -> BoundedJson.requireObject(node), "data");
        } else {
            throw invalid("the event has no data (neither data nor data_base64): the record it wraps is its data");
        }
        return new JsonInput(root, context.withCloudEvent(event));
    }

    private static JsonInput binary(byte[] value, String mediaType, String contentType, RecordContext context) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (Header header : context.headers()) {
            if (header.key().startsWith(HEADER_PREFIX)) {
                String name = header.key().substring(HEADER_PREFIX.length());
                if (!ATTRIBUTE_NAME.matcher(name).matches()) {
                    throw invalid("header '" + header.key() + "': '" + name + "' is not a CloudEvents attribute name "
                            + "(lower-case letters and digits)");
                }
                attributes.remove(name); // the last of repeated headers counts, as for every header
                attributes.put(name, header.value() == null ? "" : new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        CloudEvent event = event(CloudEvent.Mode.BINARY, attributes, HEADER_PREFIX);
        requireJson(mediaType == null ? null : contentType, "content-type");
        JsonNode root = data(() -> BoundedJson.parseObject(value), "value");
        return new JsonInput(root, context.withCloudEvent(event));
    }

    /** The event from its attributes, checked as the spec requires; {@code prefix} names them as the record does. */
    private static CloudEvent event(CloudEvent.Mode mode, Map<String, String> attributes, String prefix) {
        String specversion = required(attributes, SPECVERSION, prefix);
        if (!specversion.equals("1.0")) {
            throw invalid(prefix + "specversion is '" + specversion + "': only CloudEvents 1.0 is read");
        }
        String id = required(attributes, "id", prefix);
        String source = required(attributes, "source", prefix);
        String type = required(attributes, "type", prefix);
        String subject = attributes.get("subject");
        if (subject != null && subject.isEmpty()) {
            throw invalid(prefix + "subject is empty: when present it must not be");
        }
        try {
            new URI(source);
        } catch (URISyntaxException e) {
            throw invalid(prefix + "source is '" + source + "': not a URI-reference (" + e.getReason() + ")");
        }
        String time = attributes.get("time");
        if (time != null) {
            try {
                OffsetDateTime.parse(time);
            } catch (DateTimeParseException e) {
                throw invalid(prefix + "time is '" + time + "': expected an RFC 3339 timestamp, e.g. 2026-03-01T12:00:00Z");
            }
        }
        return new CloudEvent(mode, id, source, type, subject, attributes);
    }

    private static String required(Map<String, String> attributes, String name, String prefix) {
        String value = attributes.get(name);
        if (value == null || value.isEmpty()) {
            throw invalid(prefix + name + " is " + (value == null ? "missing" : "empty")
                    + ": a CloudEvent requires specversion, id, source and type");
        }
        return value;
    }

    /** An attribute's value as text: strings as they are, integers and booleans as written; nothing else is one. */
    private static String attributeText(String name, JsonNode value) {
        if (!ATTRIBUTE_NAME.matcher(name).matches()) {
            throw invalid("member '" + name + "' is not a CloudEvents attribute name (lower-case letters and digits)");
        }
        boolean valid = value.isTextual()
                || !STRING_ATTRIBUTES.contains(name) && (value.isBoolean() || value.isIntegralNumber() && value.canConvertToInt());
        if (!valid) {
            throw invalid("attribute " + name + " is " + value.getNodeType().name().toLowerCase(Locale.ROOT) + ": expected "
                    + (STRING_ATTRIBUTES.contains(name) ? "a string" : "a string, a 32-bit integer or a boolean"));
        }
        return value.asText();
    }

    /** A data content type must declare JSON: {@code * /json} or {@code * /*+json}; absent means JSON. */
    private static void requireJson(String contentType, String what) {
        String mediaType = mediaType(contentType);
        if (mediaType != null && !(mediaType.endsWith("/json") || mediaType.endsWith("+json"))) {
            throw invalid(what + " is '" + contentType + "': the data must be JSON (application/json or */*+json)");
        }
    }

    private interface DataReader {
        JsonNode read();
    }

    /** The data read as an unwrapped value would be, a refusal saying where the data was. */
    private static JsonNode data(DataReader reader, String where) {
        try {
            return reader.read();
        } catch (InvalidInputException e) {
            throw new InvalidInputException(e.kind(), "CloudEvent data (" + where + "): " + e.getMessage(), e);
        }
    }

    /** A media type without its parameters, lower case; null for none. */
    private static String mediaType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
        return type.isEmpty() ? null : type;
    }

    private static void set(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    private static InvalidInputException invalid(String message) {
        return new InvalidInputException(INVALID_CLOUDEVENT, "invalid CloudEvent: " + message);
    }
}
