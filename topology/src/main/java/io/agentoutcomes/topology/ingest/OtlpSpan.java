package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.List;

/**
 * One span of an OTLP request with what it inherits (its resource's attributes, its scope) and where it is in the
 * request (its indices: {@code resourceSpans[0].scopeSpans[1].spans[2]}), as decoded from either encoding.
 *
 * @param json    for a span of an {@code otlp_json} request, its resource, scope and span as they came (what a refusal
 *                of the span alone carries); null for {@code otlp_proto}
 * @param invalid why the span could not even be decoded ({@code otlp_json}: an id that is not hex, ...), else null;
 *                its neighbours are read all the same
 */
record OtlpSpan(List<KeyValue> resource, InstrumentationScope scope, Span span, int resourceIndex, int scopeIndex,
                int spanIndex, Json json, InvalidInputException invalid) {

    /** Where the span is in its request, for messages: built only when one is written. */
    String at() {
        return at(resourceIndex, scopeIndex, spanIndex);
    }

    /** Where the span at these indices is in its request: {@code resourceSpans[0].scopeSpans[1].spans[2]}. */
    static String at(int resource, int scope, int span) {
        return "resourceSpans[" + resource + "].scopeSpans[" + scope + "].spans[" + span + "]";
    }

    /** The JSON a span of an {@code otlp_json} request came from. */
    record Json(JsonNode resource, JsonNode scope, JsonNode span) {
    }
}
