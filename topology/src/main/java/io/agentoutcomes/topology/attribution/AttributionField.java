package io.agentoutcomes.topology.attribution;

import io.agentoutcomes.avro.Attribution;
import io.agentoutcomes.avro.HeaderNames;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The fields of a result's {@link Attribution}, declared once: each field's header, the JSON names ingestion reads it
 * by (the first found wins), its Avro getter and setter, and its bound ({@link AttributionBounds}). Bounds, merging, the
 * headers and JSON all iterate this table. Adding a field: a constant here, its field in the {@code Attribution} schema
 * and its header in {@link HeaderNames}; an analytics dimension of it is one more constant of {@code Dimension}.
 */
public enum AttributionField {
    TENANT_ID(HeaderNames.TENANT_ID, List.of("tenantId", "tenant_id", "tenant"), Attribution::getTenantId, Attribution::setTenantId),
    TEAM(HeaderNames.TEAM, List.of("team", "teamId", "team_id"), Attribution::getTeam, Attribution::setTeam),
    USER_ID(HeaderNames.USER_ID, List.of("userId", "user_id"), Attribution::getUserId, Attribution::setUserId),
    /**
     * A list: at most {@value AttributionBounds#MAX_TAGS} distinct tags, each a bounded value; a header (or a JSON
     * string) gives them comma-separated. Its value as one text is the first tag.
     */
    TAGS(HeaderNames.TAGS, List.of("tags"), attribution -> first(attribution.getTags()), null) {
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

    private final String header;
    private final List<String> jsonNames;
    private final Function<Attribution, String> get;
    private final BiConsumer<Attribution, String> set;

    AttributionField(String header, List<String> jsonNames, Function<Attribution, String> get,
                     BiConsumer<Attribution, String> set) {
        this.header = header;
        this.jsonNames = jsonNames;
        this.get = get;
        this.set = set;
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
        return get.apply(attribution);
    }

    /** Whether the attribution states the field. */
    public boolean stated(Attribution attribution) {
        return get.apply(attribution) != null;
    }

    /** Sets the field from a header's (or a JSON field's) text, as it came: a list's is comma-separated and bounded. */
    public void setText(Attribution to, String text) {
        set.accept(to, text);
    }

    /** Sets the field to {@code from}'s value within bounds. */
    void setBounded(Attribution to, Attribution from) {
        set.accept(to, AttributionBounds.value(get.apply(from)));
    }

    /** Sets the field to {@code first}'s value, or {@code second}'s where {@code first} does not state it. */
    void setEither(Attribution to, Attribution first, Attribution second) {
        set.accept(to, stated(first) ? get.apply(first) : get.apply(second));
    }

    /** The field a header states; null for a header of anything else. */
    public static AttributionField ofHeader(String key) {
        for (AttributionField field : FIELDS) {
            if (field.header.equals(key)) {
                return field;
            }
        }
        return null;
    }

    private static String first(List<String> tags) {
        return tags == null || tags.isEmpty() ? null : tags.get(0);
    }
}
