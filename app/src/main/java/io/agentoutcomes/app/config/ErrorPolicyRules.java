package io.agentoutcomes.app.config;

import io.agentoutcomes.avro.ErrorCategory;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.topology.classify.ErrorPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The policy settings named per category, code or agent ({@code policy.code.llm-timeout=stop},
 * {@code policy.agent.<agent id>.max.retries}), parsed into {@link ErrorPolicy} rules for {@link RetryPolicyConfig}.
 */
final class ErrorPolicyRules {

    private ErrorPolicyRules() {
    }

    static ErrorPolicy policy(Map<String, String> settings, String prefix, ErrorPolicy start) {
        ErrorPolicy policy = start;
        String preset = settings.get(prefix + "preset");
        if (preset != null) {
            policy = ErrorPolicy.preset(preset).orElseThrow(() -> new ConfigError(prefix + "preset is '" + preset
                    + "': expected default, stop-on-any-error, retry-tool-errors, ignore-tool-errors or retry-all"))
                    .chosenBy(prefix + "preset=" + preset.trim());
        }
        String retries = prefix + "max.retries";
        String attempts = prefix + "max.attempts";
        policy = withLimit(policy, retries, settings.containsKey(retries) ? (int) number(settings, retries, 0) : null,
                attempts, settings.containsKey(attempts) ? (int) number(settings, attempts, 0) : null);
        for (Map.Entry<String, String> entry : settings.entrySet()) {
            String rest = entry.getKey().startsWith(prefix) ? entry.getKey().substring(prefix.length()) : null;
            if (rest == null || rest.startsWith("agent.") && prefix.equals("policy.")) {
                continue;
            }
            String setting = entry.getKey() + "=" + entry.getValue().trim();
            if (rest.startsWith("category.")) {
                policy = policy.withCategory(category(entry.getKey(), rest.substring("category.".length())),
                        handling(entry.getKey(), entry.getValue()), setting);
            } else if (rest.startsWith("code.")) {
                policy = policy.withCode(code(entry.getKey(), rest.substring("code.".length())),
                        handling(entry.getKey(), entry.getValue()), setting);
            }
        }
        return policy;
    }

    /**
     * The retry limit from {@code ...max.retries} or {@code ...max.attempts}: one number under two names (the policy's
     * maxRetries counts failures, so it is the attempts), at most one of them set.
     */
    static ErrorPolicy withLimit(ErrorPolicy policy, String retriesKey, Integer retries, String attemptsKey,
                                         Integer attempts) {
        if (retries != null && attempts != null) {
            throw new ConfigError(retriesKey + " and " + attemptsKey + " are one limit under two names ("
                    + retriesKey + "=5 is " + attemptsKey + "=5: at most 5 attempts, 4 retries): set one of them");
        }
        if (attempts != null && attempts < 1) {
            throw new ConfigError(attemptsKey + " must be at least 1 (the first attempt), was " + attempts);
        }
        if (retries != null) {
            return policy.withMaxRetries(retries, retriesKey + "=" + retries);
        }
        return attempts == null ? policy : policy.withMaxRetries(attempts, attemptsKey + "=" + attempts);
    }

    static List<String> agentIds(Map<String, String> settings) {
        List<String> agents = new ArrayList<>();
        for (String key : settings.keySet()) {
            if (!key.startsWith("policy.agent.")) {
                continue;
            }
            String rest = key.substring("policy.agent.".length());
            int end = Math.max(Math.max(rest.lastIndexOf(".category."), rest.lastIndexOf(".code.")),
                    Math.max(rest.endsWith(".preset") ? rest.length() - ".preset".length() : -1,
                            Math.max(rest.endsWith(".max.retries") ? rest.length() - ".max.retries".length() : -1,
                                    rest.endsWith(".max.attempts") ? rest.length() - ".max.attempts".length() : -1)));
            if (end <= 0) {
                throw new ConfigError(key + " is not a policy setting: expected policy.agent.<agent id>."
                        + "preset, .max.retries, .max.attempts, .category.<category> or .code.<code>");
            }
            String agent = rest.substring(0, end);
            if (!agents.contains(agent)) {
                agents.add(agent);
            }
        }
        return agents;
    }

    private static ErrorHandling handling(String key, String value) {
        try {
            return ErrorHandling.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigError(key + " is '" + value + "': expected " + EnumWords.listed(EnumWords.words(ErrorHandling.class)));
        }
    }

    private static ErrorCategory category(String key, String name) {
        try {
            return ErrorCategory.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigError(key + ": '" + name + "' is not a category: expected one of "
                    + Arrays.stream(ErrorCategory.values()).map(c -> c.name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", ")));
        }
    }

    static ErrorCode code(String key, String value) {
        return ErrorCode.fromValue(value.trim()).orElseThrow(() -> new ConfigError(key + ": '" + value
                + "' is not a canonical error code: expected one of "
                + Arrays.stream(ErrorCode.values()).map(ErrorCode::value).collect(Collectors.joining(", "))));
    }

    static long number(Map<String, String> settings, String key, long fallback) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            long number = Long.parseLong(value.trim());
            if (number < 0) {
                throw new ConfigError(key + " must not be negative, was " + number);
            }
            return number;
        } catch (NumberFormatException e) {
            throw new ConfigError(key + " must be a whole number, was '" + value + "'");
        }
    }
}
