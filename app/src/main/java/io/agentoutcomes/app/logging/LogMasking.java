package io.agentoutcomes.app.logging;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The last line of defence against a secret in a log line: the values of the configured secrets (passwords, JAAS
 * configurations and their option values, registry credentials; {@code AppConfig.secretValues()}) are replaced by
 * {@code [hidden]} in every message and stack trace, text or JSON. The configuration is printed with secrets hidden
 * already; this catches a library that prints one anyway (an exception message quoting a setting, say).
 */
public final class LogMasking {
    public static final String HIDDEN = "[hidden]";

    /** Longest first, so a secret that contains another is hidden whole. */
    private static volatile List<String> secrets = List.of();

    private LogMasking() {
    }

    public static void hide(Set<String> values) {
        secrets = values.stream().filter(v -> v != null && !v.isEmpty())
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }

    /** The text with every secret value replaced by {@code [hidden]}. */
    public static String mask(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String masked = text;
        for (String secret : secrets) {
            if (masked.contains(secret)) {
                masked = masked.replace(secret, HIDDEN);
            }
        }
        return masked;
    }
}
