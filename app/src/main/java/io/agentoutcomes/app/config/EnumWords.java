package io.agentoutcomes.app.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An enum's constants as settings spell them: in lower case, {@code -} for {@code _} ({@code PROVIDER_MODEL} is
 * {@code provider-model}). A setting's valid values, its error message and its parsing all come from the enum's
 * {@code values()}, so a constant added there is a valid value here and a line of the settings table.
 */
final class EnumWords {
    private EnumWords() {
    }

    /** The word of a constant: {@code provider-model}. */
    static String word(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The words of every constant, in declaration order. */
    static <E extends Enum<E>> List<String> words(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(EnumWords::word).toList();
    }

    /** The words as a sentence lists them: {@code day, week or month}. */
    static String listed(List<String> words) {
        return words.size() == 1 ? words.get(0)
                : String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }

    /** The constant a word (trimmed, any case) names; IllegalArgumentException listing the words for any other. */
    static <E extends Enum<E>> E of(Class<E> type, String word) {
        String wanted = word.trim().toLowerCase(Locale.ROOT);
        for (E constant : type.getEnumConstants()) {
            if (word(constant).equals(wanted)) {
                return constant;
            }
        }
        throw new IllegalArgumentException("expected " + listed(words(type)) + ", was '" + word + "'");
    }
}
