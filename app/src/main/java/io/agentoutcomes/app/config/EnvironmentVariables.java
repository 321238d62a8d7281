package io.agentoutcomes.app.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Settings from environment variables, named as Confluent's images name them: the {@code AGENT_OUTCOMES_} prefix,
 * then the setting's name upper-cased with {@code .} written {@code _}, {@code -} written {@code __} and {@code _}
 * written {@code ___}. {@code AGENT_OUTCOMES_POLICY_CODE_LLM__RATE__LIMIT} is {@code policy.code.llm-rate-limit},
 * {@code AGENT_OUTCOMES_NUM_STREAM_THREADS} is {@code num.stream.threads}. A run of more than three underscores is
 * read three at a time ({@code ____} is {@code _.}).
 */
public final class EnvironmentVariables {
    public static final String PREFIX = "AGENT_OUTCOMES_";

    private EnvironmentVariables() {
    }

    /** The settings the {@code AGENT_OUTCOMES_*} variables of an environment give; other variables are ignored. */
    public static Map<String, String> settings(Map<String, String> environment) {
        Map<String, String> settings = new TreeMap<>();
        environment.forEach((name, value) -> setting(name).ifPresent(key -> settings.put(key, value)));
        return settings;
    }

    /** The setting a variable names, if it is one of the service's. */
    public static Optional<String> setting(String variable) {
        if (!variable.startsWith(PREFIX) || variable.length() == PREFIX.length()) {
            return Optional.empty();
        }
        String name = variable.substring(PREFIX.length()).toLowerCase(Locale.ROOT);
        StringBuilder key = new StringBuilder(name.length());
        int i = 0;
        while (i < name.length()) {
            if (name.charAt(i) != '_') {
                key.append(name.charAt(i++));
                continue;
            }
            int run = 0;
            while (i < name.length() && name.charAt(i) == '_') {
                run++;
                i++;
            }
            key.append("_".repeat(run / 3)).append(run % 3 == 1 ? "." : run % 3 == 2 ? "-" : "");
        }
        return Optional.of(key.toString());
    }

    /** The variable that sets a setting: the inverse of {@link #setting}. */
    public static String variable(String setting) {
        return PREFIX + setting.replace("_", "___").replace("-", "__").replace(".", "_").toUpperCase(Locale.ROOT);
    }
}
