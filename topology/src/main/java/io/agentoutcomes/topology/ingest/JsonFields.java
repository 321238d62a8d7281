package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.MISSING_FIELD;
import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;
import static io.agentoutcomes.topology.ingest.RejectionReason.WRONG_TYPE;

import com.fasterxml.jackson.databind.JsonNode;
import io.agentoutcomes.avro.Money;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Strict reads of one JSON object's fields, each named by its path for the error message: a field of the wrong type
 * or out of range is an {@link InvalidInputException}, never a guess. Absent and {@code null} read as absent. A number
 * of more than {@link JsonLimits#MAX_NUMBER_DIGITS} digits before or after its point is out of range for every field,
 * refused before any conversion could take long or wrap.
 */
final class JsonFields {
    private final JsonNode node;
    private final String path;

    JsonFields(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** The fields of an object found at {@code name}, or null when absent; an error when not an object. */
    JsonFields object(String name) {
        JsonNode value = value(name);
        if (value == null) {
            return null;
        }
        if (!value.isObject()) {
            throw wrongType(name, "an object", value);
        }
        return new JsonFields(value, at(name));
    }

    boolean has(String name) {
        return value(name) != null;
    }

    JsonNode node() {
        return node;
    }

    String text(String name) {
        JsonNode value = value(name);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw wrongType(name, "a string", value);
        }
        return value.asText();
    }

    String requiredText(String name) {
        String text = text(name);
        if (text == null) {
            throw new InvalidInputException(MISSING_FIELD, at(name) + " is required");
        }
        return text;
    }

    Boolean bool(String name) {
        JsonNode value = value(name);
        if (value == null) {
            return null;
        }
        if (!value.isBoolean()) {
            throw wrongType(name, "true or false", value);
        }
        return value.asBoolean();
    }

    /** A whole number from 0 up (token counts, durations, steps). */
    Long count(String name) {
        BigDecimal decimal = nonNegative(name, number(name));
        if (decimal == null) {
            return null;
        }
        try {
            return decimal.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidInputException(WRONG_TYPE, at(name) + " is " + decimal.toPlainString()
                    + ": expected a whole number of at most 19 digits");
        }
    }

    Integer smallCount(String name) {
        return asInt(name, count(name));
    }

    /** A count the contract keeps as an {@code int}: past {@link Integer#MAX_VALUE} it is out of range. */
    private Integer asInt(String name, Long count) {
        if (count == null) {
            return null;
        }
        if (count > Integer.MAX_VALUE) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + count + ": too large");
        }
        return count.intValue();
    }

    /**
     * A number from 0 up where a dialect's type is {@code number} (TypeScript's {@code number}, Zod's {@code z.number()}):
     * any finite value is valid ({@code performance.now()} measures 150.25 ms), kept in the contract's whole unit,
     * rounded half up (150.25 → 150, 150.5 → 151). Negative, non-finite or too large for 64 bits is out of range.
     */
    Long roundedCount(String name) {
        JsonNode value = number(name);
        BigDecimal decimal = nonNegative(name, value);
        if (decimal == null) {
            return null;
        }
        BigDecimal whole = decimal.setScale(0, RoundingMode.HALF_UP);
        if (whole.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + value.asText() + ": too large (at most "
                    + Long.MAX_VALUE + ")");
        }
        return whole.longValueExact();
    }

    /** As {@link #roundedCount}, for what the contract keeps as an {@code int} (retry counts, line numbers). */
    Integer smallRoundedCount(String name) {
        return asInt(name, roundedCount(name));
    }

    /** A number of seconds (possibly fractional, from 0 up) as milliseconds. */
    Long secondsAsMillis(String name) {
        JsonNode value = number(name);
        BigDecimal seconds = nonNegative(name, value);
        if (seconds == null) {
            return null;
        }
        BigDecimal millis = seconds.movePointRight(3).setScale(0, RoundingMode.CEILING);
        if (millis.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + value.asText() + ": too large (at most "
                    + Long.MAX_VALUE / 1000 + " seconds)");
        }
        return millis.longValueExact();
    }

    /** A 0..1 fraction. */
    Double fraction(String name) {
        JsonNode value = number(name);
        if (value == null) {
            return null;
        }
        double fraction = value.doubleValue();
        if (fraction < 0 || fraction > 1) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + value.asText() + ": must be between 0 and 1");
        }
        return fraction;
    }

    /** US dollars, exactly as written (the JSON text, not a binary float), from 0 up. */
    BigDecimal money(String name) {
        BigDecimal amount = nonNegative(name, number(name));
        if (amount == null) {
            return null;
        }
        if (!Money.fits(amount)) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + amount.toPlainString()
                    + ": more precise than a pico-dollar, or too large");
        }
        return amount.setScale(Money.SCALE, RoundingMode.UNNECESSARY);
    }

    /** An instant as the contract carries it: epoch milliseconds; null for null. */
    static Long millis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    /** An ISO 8601 date-time with offset, e.g. {@code 2024-01-26T15:30:00Z}. */
    Instant isoTimestamp(String name) {
        String text = text(name);
        if (text == null) {
            return null;
        }
        try {
            return InputBounds.time(at(name), text, OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(WRONG_TYPE, at(name) + " is '" + text
                    + "': expected an ISO 8601 date-time with offset, e.g. 2024-01-26T15:30:00Z");
        }
    }

    /** Any JSON value as JSON text (for free-form data kept as text), or null. */
    String jsonText(String name) {
        JsonNode value = value(name);
        return value == null ? null : value.toString();
    }

    List<String> strings(String name) {
        return list(name, (element, elementPath) -> {
            if (!element.isTextual()) {
                throw new InvalidInputException(WRONG_TYPE, elementPath + " is " + describe(element) + ": expected a string");
            }
            return element.asText();
        });
    }

    /** The objects of an array, each read by {@code read}; empty when absent. */
    <T> List<T> objects(String name, Function<JsonFields, T> read) {
        return list(name, (element, elementPath) -> {
            if (!element.isObject()) {
                throw new InvalidInputException(WRONG_TYPE, elementPath + " is " + describe(element) + ": expected an object");
            }
            return read.apply(new JsonFields(element, elementPath));
        });
    }

    /** An object of string values, e.g. headers; empty when absent. */
    Map<String, String> stringMap(String name) {
        JsonFields object = object(name);
        Map<String, String> map = new LinkedHashMap<>();
        if (object == null) {
            return map;
        }
        object.node.fields().forEachRemaining(entry -> {
            JsonNode value = entry.getValue();
            if (!value.isValueNode() || value.isNull()) {
                throw new InvalidInputException(WRONG_TYPE, object.at(entry.getKey()) + " is " + describe(value)
                        + ": expected a string");
            }
            map.put(entry.getKey(), value.asText());
        });
        return map;
    }

    private <T> List<T> list(String name, BiFunction<JsonNode, String, T> reader) {
        JsonNode value = value(name);
        List<T> items = new ArrayList<>();
        if (value == null) {
            return items;
        }
        if (!value.isArray()) {
            throw wrongType(name, "an array", value);
        }
        for (int i = 0; i < value.size(); i++) {
            items.add(reader.apply(value.get(i), at(name) + "[" + i + "]"));
        }
        return items;
    }

    private JsonNode number(String name) {
        JsonNode value = value(name);
        if (value == null) {
            return null;
        }
        if (!value.isNumber()) {
            throw wrongType(name, "a number", value);
        }
        JsonLimits.requireBoundedNumber(value, at(name));
        return value;
    }

    /** A number's value when it is from 0 up; null when absent. */
    private BigDecimal nonNegative(String name, JsonNode value) {
        if (value == null) {
            return null;
        }
        BigDecimal decimal = value.decimalValue();
        if (decimal.signum() < 0) {
            throw new InvalidInputException(OUT_OF_RANGE, at(name) + " is " + decimal.toPlainString() + ": must not be negative");
        }
        return decimal;
    }

    private JsonNode value(String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? null : value;
    }

    String at(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private InvalidInputException wrongType(String name, String expected, JsonNode value) {
        return new InvalidInputException(WRONG_TYPE, at(name) + " is " + describe(value) + ": expected " + expected);
    }

    private static String describe(JsonNode value) {
        String text = value.toString();
        return value.getNodeType().name().toLowerCase() + " " + (text.length() > 40 ? text.substring(0, 40) + "…" : text);
    }
}
