package io.agentoutcomes.topology.attribution;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.HeaderNames;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Sets a result's attribution, in one place for every input: what the value says (a producer's Avro, or the fields
 * ingestion read from JSON) wins, and the headers {@code tenant-id}, {@code team}, {@code user-id} and {@code tags}
 * fill what it does not; then everything is held to {@link AttributionBounds}. A result with neither goes on as it
 * came, so the common case costs four header look-ups.
 */
public final class AttributeResults implements FixedKeyProcessor<String, AgentResult, AgentResult> {
    private FixedKeyProcessorContext<String, AgentResult> context;

    @Override
    public void init(FixedKeyProcessorContext<String, AgentResult> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<String, AgentResult> record) {
        AgentResult result = record.value();
        Attribution fromHeaders = fromHeaders(record.headers());
        if (result == null || fromHeaders == null && result.getAttribution() == null) {
            context.forward(record);
            return;
        }
        Attribution attribution = AttributionBounds.merged(result.getAttribution(), fromHeaders);
        if (attribution == null ? result.getAttribution() == null : attribution.equals(result.getAttribution())) {
            context.forward(record);
            return;
        }
        context.forward(record.withValue(AgentResult.newBuilder(result).setAttribution(attribution).build()));
    }

    /** The attribution the headers state; null when they state none. */
    static Attribution fromHeaders(Headers headers) {
        String tenant = text(headers, HeaderNames.TENANT_ID);
        String team = text(headers, HeaderNames.TEAM);
        String user = text(headers, HeaderNames.USER_ID);
        String tags = text(headers, HeaderNames.TAGS);
        if (tenant == null && team == null && user == null && tags == null) {
            return null;
        }
        return new Attribution(tenant, team, user, AttributionBounds.tags(tags));
    }

    private static String text(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
