package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.UNPARSEABLE_JSON;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Locale;

/**
 * The one parser of JSON input, within {@link JsonLimits}: every JSON topic's value (bare or a CloudEvent's data)
 * and the rejected values scrubbed for {@code rejected-input} are read here.
 */
final class BoundedJson {
    /** The mapper of every JSON input, within {@link JsonLimits}. */
    static final JsonMapper MAPPER = JsonLimits.mapper();

    private BoundedJson() {
    }

    /** Parses a JSON object; anything else is unparseable input. */
    static JsonNode parseObject(byte[] json) {
        JsonNode node;
        if (json.length > JsonLimits.MAX_DOCUMENT_BYTES) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: longer than " + JsonLimits.MAX_DOCUMENT_BYTES + " bytes");
        }
        try {
            node = MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, JsonLimits.reason(e), e);
        } catch (RuntimeException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: " + firstLine(e.getMessage()), e);
        } catch (IOException e) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "not valid JSON: " + e.getMessage(), e);
        }
        if (node.isMissingNode()) { // no content (Jackson 2.10+ never answers null)
            throw new InvalidInputException(UNPARSEABLE_JSON, "empty record: expected a JSON object");
        }
        return requireObject(node);
    }

    /** The node when it is a JSON object; anything else is unparseable input. */
    static JsonNode requireObject(JsonNode node) {
        if (!node.isObject()) {
            throw new InvalidInputException(UNPARSEABLE_JSON, "expected a JSON object, got " + node.getNodeType()
                    .name().toLowerCase(Locale.ROOT));
        }
        return node;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
