package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Headers;

/**
 * What {@code rejected-input} gets for OTLP input, scrubbed of credentials as every rejected value is: a request that
 * cannot be read as it came, its text scrubbed byte for byte ({@link #scrubRequest}); a span refused alone as a
 * request of that one span with its resource and scope, in the encoding it came in ({@link #span}), so it can be sent
 * again once fixed.
 */
final class OtlpRejections {
    private OtlpRejections() {
    }

    /**
     * A whole request: JSON as every JSON value ({@link RejectedInput#scrubValue}); protobuf read as ISO-8859-1, so each
     * byte is one character and every byte the scrubber leaves is written back unchanged (its strings are UTF-8 inside
     * binary framing that is not text). Marks the headers when anything was replaced.
     */
    static byte[] scrubRequest(byte[] value, boolean json, Headers headers) {
        if (value == null || json) {
            return RejectedInput.scrubValue(value, headers);
        }
        String text = new String(value, StandardCharsets.ISO_8859_1);
        String scrubbed = CredentialScrubber.scrub(text);
        if (scrubbed.equals(text)) {
            return value;
        }
        RejectedInput.add(headers, RejectedInput.REDACTED, "true");
        return scrubbed.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The refused span alone in a request of its encoding, its text scrubbed (the headers marked when anything was). */
    static byte[] span(OtlpSpan span, Headers headers) {
        if (span.json() != null) {
            ObjectNode request = BoundedJson.MAPPER.createObjectNode();
            ObjectNode resource = request.putArray("resourceSpans").addObject();
            resource.set("resource", span.json().resource());
            ObjectNode scope = resource.putArray("scopeSpans").addObject();
            scope.set("scope", span.json().scope());
            ArrayNode spans = scope.putArray("spans");
            spans.add(span.json().span());
            return RejectedInput.scrubValue(request.toString().getBytes(StandardCharsets.UTF_8), headers);
        }
        boolean[] redacted = {false};
        Span original = span.span();
        Span scrubbed = original.toBuilder().clearAttributes().addAllAttributes(scrub(original.getAttributesList(), redacted))
                .clearEvents().addAllEvents(original.getEventsList().stream().map(event -> event.toBuilder().clearAttributes()
                        .addAllAttributes(scrub(event.getAttributesList(), redacted)).build()).toList())
                .setStatus(Status.newBuilder(original.getStatus()).setMessage(scrub(original.getStatus().getMessage(), redacted)))
                .build();
        byte[] value = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAllAttributes(scrub(span.resource(), redacted)))
                .addScopeSpans(ScopeSpans.newBuilder().setScope(span.scope()).addSpans(scrubbed))).build().toByteArray();
        if (redacted[0]) {
            RejectedInput.add(headers, RejectedInput.REDACTED, "true");
        }
        return value;
    }

    private static List<KeyValue> scrub(List<KeyValue> attributes, boolean[] redacted) {
        List<KeyValue> scrubbed = new ArrayList<>(attributes.size());
        for (KeyValue attribute : attributes) {
            scrubbed.add(CredentialScrubber.isCredentialName(attribute.getKey()) && attribute.getValue().hasStringValue()
                    ? redact(attribute, redacted) : attribute.toBuilder().setValue(scrub(attribute.getValue(), redacted)).build());
        }
        return scrubbed;
    }

    private static KeyValue redact(KeyValue attribute, boolean[] redacted) {
        redacted[0] = true;
        return attribute.toBuilder().setValue(AnyValue.newBuilder().setStringValue(CredentialScrubber.REDACTED)).build();
    }

    private static AnyValue scrub(AnyValue value, boolean[] redacted) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> AnyValue.newBuilder().setStringValue(scrub(value.getStringValue(), redacted)).build();
            case ARRAY_VALUE -> AnyValue.newBuilder().setArrayValue(value.getArrayValue().toBuilder().clearValues()
                    .addAllValues(value.getArrayValue().getValuesList().stream().map(v -> scrub(v, redacted)).toList())).build();
            case KVLIST_VALUE -> AnyValue.newBuilder().setKvlistValue(value.getKvlistValue().toBuilder().clearValues()
                    .addAllValues(scrub(value.getKvlistValue().getValuesList(), redacted))).build();
            default -> value;
        };
    }

    private static String scrub(String text, boolean[] redacted) {
        String scrubbed = CredentialScrubber.scrub(text);
        if (!scrubbed.equals(text)) {
            redacted[0] = true;
        }
        return scrubbed;
    }
}
