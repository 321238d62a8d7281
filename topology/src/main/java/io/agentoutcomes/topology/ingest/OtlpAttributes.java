package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.TOO_LARGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.List;
import java.util.Locale;

/**
 * The attributes of one span the OTLP dialect reads ({@link OtlpAttribute}), taken in one pass over its resource's
 * attributes and one over its own (its own winning), each bounded: at most {@value OtlpLimits#MAX_ATTRIBUTES}
 * attributes on a span or a resource, and a value read at most {@link InputLimits#MAX_ID_CHARS} characters. Attributes
 * the dialect does not read (prompts, completions) are not looked at: they reach no output.
 */
final class OtlpAttributes {
    private final AnyValue[] values = new AnyValue[OtlpAttribute.values().length];
    private final int[] ranks = new int[values.length];
    private final boolean[] own = new boolean[values.length];
    private final OtlpSpan entry;

    private OtlpAttributes(OtlpSpan entry) {
        this.entry = entry;
    }

    /** The attributes of a span over those of its resource. */
    static OtlpAttributes of(OtlpSpan entry) {
        bounded(entry.resource(), "the resource of ", entry);
        bounded(entry.span().getAttributesList(), "", entry);
        OtlpAttributes attributes = new OtlpAttributes(entry);
        attributes.take(entry.resource(), false);
        attributes.take(entry.span().getAttributesList(), true);
        return attributes;
    }

    private static void bounded(List<KeyValue> attributes, String whose, OtlpSpan entry) {
        if (attributes.size() > OtlpLimits.MAX_ATTRIBUTES) {
            throw new InvalidInputException(TOO_LARGE, whose + entry.at() + " has " + attributes.size()
                    + " attributes: more than " + OtlpLimits.MAX_ATTRIBUTES);
        }
    }

    private void take(List<KeyValue> attributes, boolean spans) {
        for (KeyValue attribute : attributes) {
            OtlpAttribute.Name name = OtlpAttribute.named(attribute.getKey());
            if (name == null) {
                continue;
            }
            int slot = name.attribute().ordinal();
            if (values[slot] == null || (spans && !own[slot]) || (spans == own[slot] && name.rank() < ranks[slot])) {
                values[slot] = attribute.getValue();
                ranks[slot] = name.rank();
                own[slot] = spans;
            }
        }
    }

    /** Whether the span or its resource carries the attribute under any of its names. */
    boolean has(OtlpAttribute attribute) {
        return values[attribute.ordinal()] != null;
    }

    /** The attribute as text (a number or boolean as written), null when absent or empty; bounded. */
    String text(OtlpAttribute attribute) {
        AnyValue value = values[attribute.ordinal()];
        if (value == null) {
            return null;
        }
        String text = switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            case VALUE_NOT_SET -> null;
            default -> throw new InvalidInputException(WRONG_TYPE, name(attribute) + " is " + kind(value) + ": expected a string");
        };
        if (text != null && text.length() > InputLimits.MAX_ID_CHARS) {
            throw new InvalidInputException(TOO_LARGE, name(attribute) + " is " + text.length() + " characters long: more than "
                    + InputLimits.MAX_ID_CHARS);
        }
        return text == null || text.isBlank() ? null : text;
    }

    /** The attribute as a count: a whole number not negative (an int, a whole double, or digits); null when absent. */
    Long count(OtlpAttribute attribute) {
        AnyValue value = values[attribute.ordinal()];
        if (value == null || value.getValueCase() == AnyValue.ValueCase.VALUE_NOT_SET) {
            return null;
        }
        long count;
        switch (value.getValueCase()) {
            case INT_VALUE -> count = value.getIntValue();
            case DOUBLE_VALUE -> {
                double d = value.getDoubleValue();
                if (d != Math.rint(d) || Math.abs(d) > 9.007199254740992E15) {
                    throw new InvalidInputException(WRONG_TYPE, name(attribute) + " is " + d + ": expected a whole number");
                }
                count = (long) d;
            }
            case STRING_VALUE -> {
                String text = value.getStringValue().trim();
                if (!text.matches("-?[0-9]{1,18}")) {
                    throw new InvalidInputException(WRONG_TYPE, name(attribute) + " is '" + cut(text)
                            + "': expected a whole number");
                }
                count = Long.parseLong(text);
            }
            default -> throw new InvalidInputException(WRONG_TYPE, name(attribute) + " is " + kind(value)
                    + ": expected a whole number");
        }
        if (count < 0) {
            throw new InvalidInputException(OUT_OF_RANGE, name(attribute) + " is " + count + ": must not be negative");
        }
        return count;
    }

    /** The name the attribute was found under, with where the span is. */
    private String name(OtlpAttribute attribute) {
        int slot = attribute.ordinal();
        return entry.at() + (own[slot] ? "" : " (resource)") + " attribute " + attribute.names().get(ranks[slot]);
    }

    private static String kind(AnyValue value) {
        return value.getValueCase().name().toLowerCase(Locale.ROOT).replace("_value", "");
    }

    private static String cut(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
