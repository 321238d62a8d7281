package io.agentoutcomes.topology.attribution;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Sets a result's attribution, in one place for every input: what the value says (a producer's Avro, or the fields
 * ingestion read from JSON) wins, and the headers of the {@link AttributionField}s ({@code tenant-id}, {@code team},
 * {@code user-id}, {@code tags}) fill what it does not; then everything is held to {@link AttributionBounds}
 * ({@link AttributionField#merged}). A result with neither goes on as it came, so the common case costs one pass over
 * the headers and allocates nothing of its own. A plain function: the intake node of agent results calls it
 * ({@code AcceptInput}, with pricing after it), so attribution costs no node of its own.
 */
public final class AttributeResults {
    private AttributeResults() {
    }

    /** The result with its attribution set: the same instance when nothing changes (null stays null). */
    public static AgentResult attribute(AgentResult result, Headers headers) {
        if (result == null) {
            return null;
        }
        Attribution fromHeaders = fromHeaders(headers);
        if (fromHeaders == null && result.getAttribution() == null) {
            return result;
        }
        Attribution attribution = AttributionField.merged(result.getAttribution(), fromHeaders);
        if (attribution == null ? result.getAttribution() == null : attribution.equals(result.getAttribution())) {
            return result;
        }
        return AgentResult.newBuilder(result).setAttribution(attribution).build();
    }

    /**
     * The attribution the headers state; null when they state none. One pass over the headers, the last header of each
     * name winning (as {@link Headers#lastHeader} would), no text decoded for a header of another name.
     */
    static Attribution fromHeaders(Headers headers) {
        Header[] stated = null;
        for (Header header : headers) {
            AttributionField field = AttributionField.ofHeader(header.key());
            if (field != null) {
                stated = stated == null ? new Header[AttributionField.ALL.size()] : stated;
                stated[field.ordinal()] = header;
            }
        }
        if (stated == null) {
            return null;
        }
        Attribution attribution = new Attribution();
        boolean any = false;
        for (AttributionField field : AttributionField.ALL) {
            String text = text(stated[field.ordinal()]);
            any |= text != null;
            field.setText(attribution, text);
        }
        return any ? attribution : null;
    }

    private static String text(Header header) {
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
