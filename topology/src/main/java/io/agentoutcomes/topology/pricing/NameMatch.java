package io.agentoutcomes.topology.pricing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A name rule of genai-prices ({@code MatchLogic}): {@code equals}, {@code starts_with}, {@code ends_with},
 * {@code contains} compared case-insensitively, {@code regex} (found anywhere in the name, case as written), and
 * {@code or} / {@code and} of rules. The names it is given are already lower-cased and trimmed.
 */
final class NameMatch {
    private NameMatch() {
    }

    static Predicate<String> of(JsonNode rule) {
        if (rule == null || rule.isNull()) {
            return name -> false;
        }
        if (rule.has("or")) {
            List<Predicate<String>> any = all(rule.get("or"));
            return name -> any.stream().anyMatch(p -> p.test(name));
        }
        if (rule.has("and")) {
            List<Predicate<String>> every = all(rule.get("and"));
            return name -> every.stream().allMatch(p -> p.test(name));
        }
        if (rule.has("regex")) {
            Pattern pattern = Pattern.compile(rule.get("regex").asText());
            return name -> pattern.matcher(name).find();
        }
        String kind = rule.fieldNames().next();
        String text = rule.get(kind).asText().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "equals" -> text::equals;
            case "starts_with" -> name -> name.startsWith(text);
            case "ends_with" -> name -> name.endsWith(text);
            case "contains" -> name -> name.contains(text);
            default -> throw new IllegalArgumentException("unknown name rule '" + kind + "' in " + rule);
        };
    }

    private static List<Predicate<String>> all(JsonNode rules) {
        List<Predicate<String>> predicates = new ArrayList<>();
        rules.forEach(rule -> predicates.add(of(rule)));
        return predicates;
    }
}
