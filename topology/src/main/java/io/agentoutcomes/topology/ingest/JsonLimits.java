package io.agentoutcomes.topology.ingest;

import static io.agentoutcomes.topology.ingest.RejectionReason.OUT_OF_RANGE;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much JSON input one record may cost: the parser refuses documents, strings, numbers and nesting beyond these
 * bounds before building anything, and {@link JsonFields} refuses numbers whose magnitude no field can hold before
 * converting them (converting {@code 1e10000000} to a whole number alone takes seconds). A duplicate key is refused
 * too: which of two values a producer meant is a guess.
 */
final class JsonLimits {
    static final int MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
    static final int MAX_NESTING_DEPTH = 100;
    static final int MAX_NUMBER_LENGTH = 100;
    /** Digits a number may have before, and (trailing zeros aside) after, its decimal point. */
    static final int MAX_NUMBER_DIGITS = 30;

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate (?:field|Object property) ['\"](.*)['\"]");

    private JsonLimits() {
    }

    /** Numbers keep their written digits (exact money); NaN and Infinity parse, to be refused with a clear reason. */
    static JsonMapper mapper() {
        JsonFactory factory = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxDocumentLength(MAX_DOCUMENT_BYTES)
                .maxStringLength(MAX_DOCUMENT_BYTES)
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .build()).build();
        return JsonMapper.builder(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /** Why the parser refused the input, in this project's words where a bound or a duplicate key was the reason. */
    static String reason(JacksonException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        Matcher duplicate = DUPLICATE.matcher(message);
        if (duplicate.find()) {
            return "duplicate key '" + duplicate.group(1) + "': a key may appear once per object";
        }
        if (message.startsWith("Document nesting depth")) {
            return "not valid JSON: nested deeper than " + MAX_NESTING_DEPTH + " levels";
        }
        if (message.startsWith("Number value length") || message.startsWith("Number length")) {
            return "not valid JSON: a number longer than " + MAX_NUMBER_LENGTH + " characters";
        }
        if (message.startsWith("Document length") || message.startsWith("String value length")) {
            return "not valid JSON: longer than " + MAX_DOCUMENT_BYTES + " bytes";
        }
        int newline = message.indexOf('\n');
        return "not valid JSON: " + (newline < 0 ? message : message.substring(0, newline));
    }

    /**
     * Refuses a number no field can hold ({@code out-of-range}, naming it by {@code path}) before anything converts it:
     * not finite, or more than {@link #MAX_NUMBER_DIGITS} digits before, or (trailing zeros aside) after, its point.
     */
    static void requireBoundedNumber(JsonNode value, String path) {
        if ((value.isDouble() || value.isFloat()) && !Double.isFinite(value.doubleValue())) {
            throw new InvalidInputException(OUT_OF_RANGE, path + " is " + value.asText() + ": not a finite number");
        }
        BigDecimal decimal = value.decimalValue();
        if (decimal.precision() - decimal.scale() > MAX_NUMBER_DIGITS) {
            throw new InvalidInputException(OUT_OF_RANGE, path + " is " + value.asText() + ": out of range (at most "
                    + MAX_NUMBER_DIGITS + " digits before the decimal point)");
        }
        if (decimal.scale() > MAX_NUMBER_DIGITS && decimal.stripTrailingZeros().scale() > MAX_NUMBER_DIGITS) {
            throw new InvalidInputException(OUT_OF_RANGE, path + " is " + value.asText() + ": out of range (at most "
                    + MAX_NUMBER_DIGITS + " digits after the decimal point)");
        }
    }
}
