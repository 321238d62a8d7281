package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * An {@code otlp_json} request read from the bounded parser's tree into OTLP's protobuf classes, by the OTLP/JSON
 * rules: lowerCamelCase names, trace and span ids as hex (not protobuf JSON's base64), enums as numbers, 64-bit
 * integers as strings or numbers, unknown members ignored. Only what the dialect reads is taken: resource attributes,
 * scope, and of each span its ids, trace state, flags, name, kind, times, attributes and status (not events or links).
 * A span that cannot be read is refused alone ({@link OtlpSpan#invalid()}), so are the spans of a resource that cannot.
 */
final class OtlpJson {
    private static final HexFormat HEX = HexFormat.of();

    private OtlpJson() {
    }

    static List<OtlpSpan> read(JsonNode root) {
        JsonNode resources = array(root, "resourceSpans", "resourceSpans");
        int count = 0;
        for (JsonNode resource : resources) {
            for (JsonNode scope : array(resource, "scopeSpans", "scopeSpans")) {
                count += array(scope, "spans", "spans").size();
            }
        }
        OtlpLimits.boundSpans(count);
        List<OtlpSpan> spans = new ArrayList<>(count);
        for (int r = 0; r < resources.size(); r++) {
            JsonNode resource = resources.get(r);
            JsonNode scopes = array(resource, "scopeSpans", "scopeSpans");
            List<KeyValue> resourceAttributes = List.of();
            InvalidInputException resourceInvalid = null;
            try {
                resourceAttributes = keyValues(resource.path("resource").path("attributes"),
                        "resourceSpans[" + r + "].resource.attributes");
            } catch (InvalidInputException e) {
                resourceInvalid = e;
            }
            for (int s = 0; s < scopes.size(); s++) {
                JsonNode scopeJson = scopes.get(s);
                InstrumentationScope scope = InstrumentationScope.newBuilder()
                        .setName(scopeJson.path("scope").path("name").asText(""))
                        .setVersion(scopeJson.path("scope").path("version").asText("")).build();
                JsonNode spansJson = array(scopeJson, "spans", "spans");
                for (int i = 0; i < spansJson.size(); i++) {
                    String at = OtlpSpan.at(r, s, i);
                    OtlpSpan.Json json = new OtlpSpan.Json(resource.path("resource"), scopeJson.path("scope"), spansJson.get(i));
                    InvalidInputException invalid = resourceInvalid;
                    Span span = Span.getDefaultInstance();
                    if (invalid == null) {
                        try {
                            span = span(spansJson.get(i), at);
                        } catch (InvalidInputException e) {
                            invalid = e;
                        }
                    }
                    spans.add(new OtlpSpan(resourceAttributes, scope, span, r, s, i, json, invalid));
                }
            }
        }
        return spans;
    }

    private static Span span(JsonNode span, String at) {
        if (!span.isObject()) {
            throw new InvalidInputException(WRONG_TYPE, at + " is " + type(span) + ": expected an object");
        }
        JsonNode status = span.path("status");
        return Span.newBuilder()
                .setTraceId(id(span, "traceId", 16, at))
                .setSpanId(id(span, "spanId", 8, at))
                .setParentSpanId(id(span, "parentSpanId", 8, at))
                .setTraceState(text(span, "traceState", at))
                .setFlags((int) uint(span.path("flags"), at + ".flags", 0xFFFFFFFFL))
                .setName(text(span, "name", at))
                .setKindValue((int) uint(span.path("kind"), at + ".kind", 5))
                .setStartTimeUnixNano(uint(span.path("startTimeUnixNano"), at + ".startTimeUnixNano", Long.MAX_VALUE))
                .setEndTimeUnixNano(uint(span.path("endTimeUnixNano"), at + ".endTimeUnixNano", Long.MAX_VALUE))
                .addAllAttributes(keyValues(span.path("attributes"), at + ".attributes"))
                .setStatus(Status.newBuilder().setCodeValue((int) uint(status.path("code"), at + ".status.code", 2))
                        .setMessage(text(status, "message", at + ".status")))
                .build();
    }

    /** An id as OTLP/JSON writes it: hex digits, case-insensitive; absent or empty is empty (judged by the dialect). */
    private static ByteString id(JsonNode span, String name, int bytes, String at) {
        String hex = text(span, name, at);
        if (hex.isEmpty()) {
            return ByteString.EMPTY;
        }
        if (hex.length() != bytes * 2 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new InvalidInputException(WRONG_TYPE, at + "." + name + " is '" + (hex.length() > 64 ? hex.substring(0, 64)
                    + "…" : hex) + "': expected " + bytes * 2 + " hex digits (OTLP/JSON writes ids in hex, not base64)");
        }
        return ByteString.copyFrom(HEX.parseHex(hex));
    }

    private static String text(JsonNode object, String name, String at) {
        JsonNode value = object.path(name);
        if (value.isMissingNode() || value.isNull()) {
            return "";
        }
        if (!value.isTextual()) {
            throw new InvalidInputException(WRONG_TYPE, at + "." + name + " is " + type(value) + ": expected a string");
        }
        return value.asText();
    }

    /** A whole number from 0 to {@code max}, as a JSON number or a string of digits (64-bit integers may be either). */
    private static long uint(JsonNode value, String at, long max) {
        if (value.isMissingNode() || value.isNull()) {
            return 0;
        }
        long number;
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            number = value.asLong();
        } else if (value.isTextual() && value.asText().matches("[0-9]{1,19}")) {
            try {
                number = Long.parseLong(value.asText());
            } catch (NumberFormatException e) {
                throw new InvalidInputException(OUT_OF_RANGE, at + " is " + value.asText() + ": more than " + max);
            }
        } else {
            throw new InvalidInputException(WRONG_TYPE, at + " is " + type(value) + ": expected a whole number");
        }
        if (number < 0 || number > max) {
            throw new InvalidInputException(OUT_OF_RANGE, at + " is " + number + ": expected 0 to " + max);
        }
        return number;
    }

    private static List<KeyValue> keyValues(JsonNode list, String at) {
        if (list.isMissingNode() || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new InvalidInputException(WRONG_TYPE, at + " is " + type(list) + ": expected an array");
        }
        if (list.size() > OtlpLimits.MAX_ATTRIBUTES) {
            throw new InvalidInputException(RejectionReason.TOO_LARGE, at + " has " + list.size()
                    + " attributes: more than " + OtlpLimits.MAX_ATTRIBUTES);
        }
        List<KeyValue> keyValues = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            JsonNode pair = list.get(i);
            keyValues.add(KeyValue.newBuilder().setKey(text(pair, "key", at + "[" + i + "]"))
                    .setValue(value(pair.path("value"), at + "[" + i + "].value")).build());
        }
        return keyValues;
    }

    private static AnyValue value(JsonNode value, String at) {
        AnyValue.Builder any = AnyValue.newBuilder();
        if (value.isMissingNode() || value.isNull() || value.isEmpty()) {
            return any.build();
        }
        if (!value.isObject()) {
            throw new InvalidInputException(WRONG_TYPE, at + " is " + type(value) + ": expected an AnyValue object");
        }
        if (value.has("stringValue")) {
            return any.setStringValue(text(value, "stringValue", at)).build();
        }
        if (value.has("boolValue")) {
            return any.setBoolValue(value.get("boolValue").asBoolean()).build();
        }
        if (value.has("intValue")) {
            JsonNode number = value.get("intValue");
            if (number.isIntegralNumber() && number.canConvertToLong()) {
                return any.setIntValue(number.asLong()).build();
            }
            if (number.isTextual() && number.asText().matches("-?[0-9]{1,18}")) {
                return any.setIntValue(Long.parseLong(number.asText())).build();
            }
            throw new InvalidInputException(WRONG_TYPE, at + ".intValue is " + type(number) + ": expected a 64-bit integer");
        }
        if (value.has("doubleValue")) {
            JsonNode number = value.get("doubleValue");
            if (!number.isNumber()) {
                throw new InvalidInputException(WRONG_TYPE, at + ".doubleValue is " + type(number) + ": expected a number");
            }
            return any.setDoubleValue(number.asDouble()).build();
        }
        if (value.has("arrayValue")) {
            JsonNode values = value.get("arrayValue").path("values");
            ArrayValue.Builder array = ArrayValue.newBuilder();
            for (int i = 0; values.isArray() && i < values.size(); i++) {
                array.addValues(value(values.get(i), at + ".arrayValue.values[" + i + "]"));
            }
            return any.setArrayValue(array).build();
        }
        if (value.has("kvlistValue")) {
            return any.setKvlistValue(KeyValueList.newBuilder().addAllValues(keyValues(
                    value.get("kvlistValue").path("values"), at + ".kvlistValue.values"))).build();
        }
        if (value.has("bytesValue")) {
            try {
                return any.setBytesValue(ByteString.copyFrom(Base64.getDecoder().decode(text(value, "bytesValue", at))))
                        .build();
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException(WRONG_TYPE, at + ".bytesValue is not base64: " + e.getMessage());
            }
        }
        return any.build();
    }

    private static JsonNode array(JsonNode object, String name, String what) {
        JsonNode value = object.path(name);
        if (value.isMissingNode() || value.isNull()) {
            return MissingNode.getInstance();
        }
        if (!value.isArray()) {
            throw new InvalidInputException(WRONG_TYPE, what + " is " + type(value) + ": expected an array");
        }
        return value;
    }

    private static String type(JsonNode node) {
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
