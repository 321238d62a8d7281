package io.agentoutcomes.topology.attribution;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The bounds of one attribution value, which cut rather than reject (a result is never refused for who it is
 * attributed to): each value trimmed, control characters dropped, {@code |} written {@code /} (it separates the parts
 * of the analytics window keys), cut to {@value #MAX_LENGTH} characters; blank is none; at most {@value #MAX_TAGS}
 * distinct tags, in the order given. A whole attribution is held to them field by field, by the table of its fields.
 */
public final class AttributionBounds {
    public static final int MAX_LENGTH = 128;
    public static final int MAX_TAGS = 16;

    private AttributionBounds() {
    }

    /** One value within bounds; null for none or blank. */
    public static String value(CharSequence raw) {
        if (raw == null) {
            return null;
        }
        String text = raw.toString().strip();
        if (text.isEmpty()) {
            return null;
        }
        StringBuilder kept = new StringBuilder(Math.min(text.length(), MAX_LENGTH));
        for (int i = 0; i < text.length() && kept.length() < MAX_LENGTH; ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            if (Character.isISOControl(codePoint)) {
                continue;
            }
            if (kept.length() + Character.charCount(codePoint) > MAX_LENGTH) {
                break;
            }
            kept.appendCodePoint(codePoint == '|' ? '/' : codePoint);
        }
        String value = kept.toString().strip();
        return value.isEmpty() ? null : value;
    }

    /** Tags within bounds: each a bounded value, blanks and repeats dropped, at most {@value #MAX_TAGS}. */
    public static List<String> tags(List<? extends CharSequence> raw) {
        if (raw == null || raw.isEmpty()) {
            return new ArrayList<>();
        }
        Set<String> kept = new LinkedHashSet<>();
        for (CharSequence tag : raw) {
            String value = value(tag);
            if (value != null && kept.size() < MAX_TAGS) {
                kept.add(value);
            }
        }
        return new ArrayList<>(kept);
    }

    /** Comma-separated tags (the {@code tags} header), within bounds. */
    public static List<String> tags(String commaSeparated) {
        return commaSeparated == null ? new ArrayList<>() : tags(List.of(commaSeparated.split(",")));
    }
}
