package io.agentoutcomes.app.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * A {@link ConfigDef.Validator} that says, in the settings table and in its error, what a valid value is. A value
 * that is not set (null) is always valid: a setting without a default is optional.
 *
 * @param description what is valid, as the settings table shows it ("at least 1", "0..1")
 * @param valid       whether a parsed, non-null value is valid
 * @param problem     the error message for an invalid value, given the setting's name and the value
 */
public record Check(String description, Predicate<Object> valid, Problem problem) implements ConfigDef.Validator {

    /** The error message for an invalid value of a setting. */
    @FunctionalInterface
    public interface Problem {
        String message(String name, Object value);
    }

    @Override
    public void ensureValid(String name, Object value) {
        if (value != null && !valid.test(value)) {
            throw new ConfigError(problem.message(name, value));
        }
    }

    @Override
    public String toString() {
        return description;
    }

    public static Check atLeast(long min) {
        return new Check("at least " + min, v -> ((Number) v).longValue() >= min,
                (name, v) -> name + " must be at least " + min + ", was " + v);
    }

    /** At least 0, saying "must not be negative" (the wording of the service's first settings). */
    public static Check notNegative() {
        return new Check("at least 0", v -> ((Number) v).doubleValue() >= 0,
                (name, v) -> name + " must not be negative, was " + v);
    }

    public static Check between(long min, long max) {
        return new Check(min + ".." + max, v -> ((Number) v).longValue() >= min && ((Number) v).longValue() <= max,
                (name, v) -> name + " must be between " + min + " and " + max + ", was " + v);
    }

    public static Check between(double min, double max) {
        return new Check(min + ".." + max, v -> ((Number) v).doubleValue() >= min && ((Number) v).doubleValue() <= max,
                (name, v) -> name + " must be between " + trim(min) + " and " + trim(max) + ", was " + v);
    }

    public static Check port() {
        return new Check("0..65535", v -> ((Number) v).intValue() >= 0 && ((Number) v).intValue() <= 65535,
                (name, v) -> name + " must be a port between 0 and 65535, was " + v);
    }

    /** One of the given words, in any case; the message lists them as "a, b or c". */
    public static Check oneOf(List<String> words) {
        String listed = EnumWords.listed(words);
        return new Check(String.join(", ", words), v -> words.contains(v.toString().trim().toLowerCase(Locale.ROOT)),
                (name, v) -> name + " is '" + v + "': expected " + listed);
    }

    /** One of an enum's constants, as {@link EnumWords} spells them ({@code provider-model}), in any case. */
    public static <E extends Enum<E>> Check oneOf(Class<E> type) {
        return oneOf(EnumWords.words(type));
    }

    /** A secret of the form {@code user:password}, both parts non-empty, or empty (not set); the message never shows it. */
    public static Check userInfo() {
        return new Check("user:password", v -> {
            String text = v instanceof Password password ? password.value() : v.toString();
            int colon = text.indexOf(':');
            return text.isEmpty() || colon > 0 && colon < text.length() - 1;
        }, (name, v) -> name + " must be user:password, both non-empty (the value is not shown)");
    }

    /** A value {@code parser} accepts; its error message is the parser's (an IllegalArgumentException's after the name). */
    public static Check parsedBy(String description, Function<Object, ?> parser) {
        return new Check(description, v -> refusal(parser, v) == null,
                (name, v) -> name + " is not valid: " + Objects.requireNonNullElse(refusal(parser, v), v));
    }

    /** Why {@code parser} refuses a value; null when it takes it. */
    private static String refusal(Function<Object, ?> parser, Object value) {
        try {
            parser.apply(value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** Prefixes another check's message, keeping its description. */
    public Check saying(String prefix) {
        return new Check(description, valid, (name, v) -> prefix + problem.message(name, v));
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
