package io.agentoutcomes.topology.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.topology.attribution.AttributionBounds;
import io.agentoutcomes.topology.attribution.AttributionField;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON result's attribution, from the fields any dialect may carry, by each {@link AttributionField}'s JSON names
 * ({@code tenantId}/{@code tenant_id}/{@code tenant}, {@code team}/{@code teamId}/{@code team_id},
 * {@code userId}/{@code user_id}, {@code tags}: an array, or one comma-separated string), at the top level first, then
 * in a {@code metadata} object. Read leniently: a value of another type than text (a number is taken as
 * its text) is left out, never rejected. Headers fill what is missing later ({@code AttributeResults}).
 */
final class JsonAttribution {
    private JsonAttribution() {
    }

    /** The attribution the object states; null when it states none. */
    static Attribution read(JsonNode root) {
        JsonNode metadata = root.get("metadata");
        JsonNode inner = metadata != null && metadata.isObject() ? metadata : null;
        Attribution read = new Attribution();
        for (AttributionField field : AttributionField.ALL) {
            if (field.many()) {
                read.setTags(tags(root, inner, field.jsonNames()));
            } else {
                field.setText(read, text(root, inner, field.jsonNames()));
            }
        }
        return AttributionField.bounded(read);
    }

    private static String text(JsonNode root, JsonNode metadata, List<String> names) {
        String value = text(root, names);
        return value != null || metadata == null ? value : text(metadata, names);
    }

    private static String text(JsonNode object, List<String> names) {
        for (String name : names) {
            JsonNode value = object.get(name);
            if (value != null && (value.isTextual() || value.isNumber()) && AttributionBounds.value(value.asText()) != null) {
                return value.asText();
            }
        }
        return null;
    }

    private static List<String> tags(JsonNode root, JsonNode metadata, List<String> names) {
        for (String name : names) {
            List<String> tags = tags(root.get(name));
            if (tags.isEmpty() && metadata != null) {
                tags = tags(metadata.get(name));
            }
            if (!tags.isEmpty()) {
                return tags;
            }
        }
        return new ArrayList<>();
    }

    private static List<String> tags(JsonNode tags) {
        if (tags == null) {
            return new ArrayList<>();
        }
        if (tags.isTextual()) {
            return AttributionBounds.tags(tags.asText());
        }
        List<String> values = new ArrayList<>();
        if (tags.isArray()) {
            tags.forEach(tag -> {
                if (tag.isTextual() || tag.isNumber()) {
                    values.add(tag.asText());
                }
            });
        }
        return AttributionBounds.tags(values);
    }
}
