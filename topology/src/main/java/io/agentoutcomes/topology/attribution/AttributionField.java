package io.agentoutcomes.topology.attribution;

import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.HeaderNames;
import java.util.List;

/**
 * The fields of a result's {@link Attribution}, declared once: each field's name in the schema (its Avro getter and
 * setter are the record's own {@code get(int)} and {@code put(int, Object)} at its position: one call site, no lambda
 * per field), its header, the JSON names ingestion reads it by (the first found wins), and its bound
 * ({@link AttributionBounds}: a value, or the tags). Bounding and merging a whole attribution are here, field by field;
 * the headers and JSON iterate this table too.
 * Adding a field: a constant here, its field in the {@code Attribution} schema and its header in {@link HeaderNames};
 * an analytics dimension of it is one more constant of {@code Dimension}.
 */
public enum AttributionField {
    TENANT_ID("tenantId", HeaderNames.TENANT_ID, List.of("tenantId", "tenant_id", "tenant")),
    TEAM("team", HeaderNames.TEAM, List.of("team", "teamId", "team_id")),
    USER_ID("userId", HeaderNames.USER_ID, List.of("userId", "user_id")),
    /**
     * A list: at most {@value AttributionBounds#MAX_TAGS} distinct tags, each a bounded value; a header (or a JSON
     * string) gives them comma-separated. Its value as one text is the first tag.
     */
    TAGS("tags", HeaderNames.TAGS, List.of("tags")) {
        @Override
        public String text(Attribution attribution) {
            List<String> tags = attribution.getTags();
            return tags == null || tags.isEmpty() ? null : tags.get(0);
        }

        @Override
        public boolean stated(Attribution attribution) {
            return !attribution.getTags().isEmpty();
        }

        @Override
        public void setText(Attribution to, String text) {
            to.setTags(AttributionBounds.tags(text));
        }

        @Override
        void setBounded(Attribution to, Attribution from) {
            to.setTags(AttributionBounds.tags(from.getTags()));
        }

        @Override
        void setEither(Attribution to, Attribution first, Attribution second) {
            to.setTags(stated(first) ? first.getTags() : second.getTags());
        }
    };

    /** Every field, in the schema's order (without the copy {@code values()} makes per call). */
    public static final List<AttributionField> ALL = List.of(values());
    /** The same, for the per-header look-up: no iterator per header. */
    private static final AttributionField[] FIELDS = values();
    /**
     * The lengths of the fields' headers, one bit each: a header of another length (most of a record's) is passed over
     * without comparing its name, which keeps the pass over a record's headers as cheap as comparisons with constants.
     */
    private static final long HEADER_LENGTHS = headerLengths();

    private final String avroName;
    private final String header;
    private final List<String> jsonNames;
    /** The field's position in the record, for Avro's own accessors ({@code get(int)}, {@code put(int, Object)}). */
    private final int position;

    AttributionField(String avroName, String header, List<String> jsonNames) {
        this.avroName = avroName;
        this.header = header;
        this.jsonNames = jsonNames;
        this.position = Attribution.getClassSchema().getField(avroName).pos();
    }

    /** The field's name in the {@code Attribution} schema. */
    public String avroName() {
        return avroName;
    }

    /** The header that states the field ({@code tenant-id}, ...). */
    public String header() {
        return header;
    }

    /** The names of the field in a JSON result (top level or {@code metadata}), the first found winning. */
    public List<String> jsonNames() {
        return jsonNames;
    }

    /** Whether the field holds a list (the tags) rather than one value. */
    public boolean many() {
        return this == TAGS;
    }

    /** The field's value as one text (a list's first); null where the attribution does not state it. */
    public String text(Attribution attribution) {
        return (String) attribution.get(position);
    }

    /** Whether the attribution states the field. */
    public boolean stated(Attribution attribution) {
        return attribution.get(position) != null;
    }

    /** Sets the field from a header's (or a JSON field's) text, as it came: a list's is comma-separated and bounded. */
    public void setText(Attribution to, String text) {
        to.put(position, text);
    }

    /** Sets the field to {@code from}'s value within bounds. */
    void setBounded(Attribution to, Attribution from) {
        to.put(position, AttributionBounds.value(text(from)));
    }

    /** Sets the field to {@code first}'s value, or {@code second}'s where {@code first} does not state it. */
    void setEither(Attribution to, Attribution first, Attribution second) {
        Object value = first.get(position);
        to.put(position, value != null ? value : second.get(position));
    }

    /** The field a header states; null for a header of anything else. */
    public static AttributionField ofHeader(String key) {
        if (key.length() >= Long.SIZE || (HEADER_LENGTHS & 1L << key.length()) == 0) {
            return null;
        }
        for (AttributionField field : FIELDS) {
            if (field.header.equals(key)) {
                return field;
            }
        }
        return null;
    }

    /** The attribution within bounds; null when nothing is left of it. */
    public static Attribution bounded(Attribution attribution) {
        if (attribution == null) {
            return null;
        }
        Attribution bounded = new Attribution();
        for (AttributionField field : FIELDS) {
            field.setBounded(bounded, attribution);
        }
        return isEmpty(bounded) ? null : bounded;
    }

    /** Whether the attribution says nothing. */
    public static boolean isEmpty(Attribution attribution) {
        if (attribution == null) {
            return true;
        }
        for (AttributionField field : FIELDS) {
            if (field.stated(attribution)) {
                return false;
            }
        }
        return true;
    }

    /** What {@code given} says, with what it does not say taken from {@code fill}; bounded. */
    public static Attribution merged(Attribution given, Attribution fill) {
        Attribution first = bounded(given);
        Attribution second = bounded(fill);
        if (first == null || second == null) {
            return first == null ? second : first;
        }
        Attribution merged = new Attribution();
        for (AttributionField field : FIELDS) {
            field.setEither(merged, first, second);
        }
        return merged;
    }

    private static long headerLengths() {
        long lengths = 0;
        for (AttributionField field : values()) {
            if (field.header.length() >= Long.SIZE) {
                throw new IllegalStateException("header " + field.header + " is longer than the look-up allows");
            }
            lengths |= 1L << field.header.length();
        }
        return lengths;
    }
}
