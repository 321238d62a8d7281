package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.UNPARSEABLE_PROTOBUF;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@code ExportTraceServiceRequest} as the OpenTelemetry Collector's Kafka exporter writes it, in either of its
 * encodings, told apart by the first byte that is not white space: <code>{</code> is {@code otlp_json} (read with the
 * bounded parser of every JSON input, {@link OtlpJson}); anything else is {@code otlp_proto} (a request's first field,
 * {@code resource_spans}, starts with byte 0x0A; the empty request is no bytes). At most
 * {@value OtlpLimits#MAX_SPANS} spans.
 */
final class OtlpRequests {
    private OtlpRequests() {
    }

    /** Every span of the request, in order; an {@link InvalidInputException} when the request as a whole is bad. */
    static List<OtlpSpan> read(byte[] value) {
        if (isJson(value)) {
            return OtlpJson.read(BoundedJson.parseObject(value));
        }
        ExportTraceServiceRequest request;
        try {
            request = ExportTraceServiceRequest.parseFrom(value);
        } catch (InvalidProtocolBufferException e) {
            throw new InvalidInputException(UNPARSEABLE_PROTOBUF, "not an OTLP ExportTraceServiceRequest (otlp_proto): "
                    + e.getMessage(), e);
        }
        if (!request.getUnknownFields().asMap().isEmpty()) {
            throw new InvalidInputException(UNPARSEABLE_PROTOBUF, "not an OTLP ExportTraceServiceRequest (otlp_proto): "
                    + "it has fields the request does not (numbers " + request.getUnknownFields().asMap().keySet() + ")");
        }
        int count = 0;
        for (ResourceSpans resource : request.getResourceSpansList()) {
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                count += scope.getSpansCount();
            }
        }
        OtlpLimits.boundSpans(count);
        List<OtlpSpan> spans = new ArrayList<>(count);
        for (int r = 0; r < request.getResourceSpansCount(); r++) {
            ResourceSpans resource = request.getResourceSpans(r);
            for (int s = 0; s < resource.getScopeSpansCount(); s++) {
                ScopeSpans scope = resource.getScopeSpans(s);
                for (int i = 0; i < scope.getSpansCount(); i++) {
                    spans.add(new OtlpSpan(resource.getResource().getAttributesList(), scope.getScope(), scope.getSpans(i),
                            r, s, i, null, null));
                }
            }
        }
        return spans;
    }

    /** Whether a request is {@code otlp_json}: its first byte that is not white space is <code>{</code>. */
    static boolean isJson(byte[] value) {
        for (byte b : value) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }
}
