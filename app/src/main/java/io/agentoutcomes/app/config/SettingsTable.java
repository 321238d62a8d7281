package io.agentoutcomes.app.config;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings table of docs/operations.md, generated from {@link AgentOutcomesConfig}: one row per declared setting
 * and one per family, by group ({@link Headings#ORDER}). The table sits between two marker lines in the document; {@link #main} rewrites it
 * there, and a test fails when the committed table is not what this prints.
 */
public final class SettingsTable {
    public static final String BEGIN = "<!-- settings table: generated from AgentOutcomesConfig by SettingsTable; do not edit -->";
    public static final String END = "<!-- end of settings table -->";

    private SettingsTable() {
    }

    /**
     * @param flags the command-line flag of each setting that has one ({@code ConfigOptions.FLAGS})
     */
    public static String markdown(Map<String, String> flags) {
        StringBuilder table = new StringBuilder();
        table.append("| setting | environment variable | flag | type | default | valid values | meaning |\n");
        table.append("|---|---|---|---|---|---|---|\n");
        for (String group : Headings.ORDER) {
            table.append("| **").append(group).append("** | | | | | | |\n");
            AgentOutcomesConfig.CONFIG.configKeys().values().stream().filter(key -> group.equals(key.group))
                    .forEach(key -> table.append(row(key, flags)));
            AgentOutcomesConfig.FAMILIES.stream().filter(family -> group.equals(family.group()))
                    .forEach(family -> table.append("| `").append(family.pattern()).append("` | ")
                            .append("e.g. `").append(EnvironmentVariables.variable(family.example())).append("` | `-p` | ")
                            .append(family.type().name().toLowerCase(Locale.ROOT)).append(" | ")
                            .append(cell(family.fallback())).append(" | ").append(cell(family.values())).append(" | ")
                            .append(cell(family.doc())).append(" |\n"));
        }
        table.append("| anything else | `").append(EnvironmentVariables.PREFIX).append("…` | `-p key=value` | | | | passed to every ")
                .append("Kafka client and to Kafka Streams as it is (security, `num.stream.threads`, serde settings such as ")
                .append("`auto.register.schemas`); a Confluent serde setting the service does not honour is refused (schemas.md) |\n");
        return table.toString();
    }

    private static String row(ConfigDef.ConfigKey key, Map<String, String> flags) {
        String shown = key.defaultValue == null ? null : ConfigDef.convertToString(key.defaultValue, key.type);
        String defaultValue = shown == null ? "not set" : key.defaultValue instanceof Password ? "[hidden]"
                : shown.isEmpty() ? "empty" : "`" + shown + "`";
        String passed = AgentOutcomesConfig.PASSED_THROUGH.contains(key.name) ? " Passed to the Kafka clients and serdes too." : "";
        return "| `" + key.name + "` | `" + EnvironmentVariables.variable(key.name) + "` | `"
                + flags.getOrDefault(key.name, "-p") + "` | " + key.type.name().toLowerCase(Locale.ROOT) + " | " + defaultValue + " | "
                + cell(key.validator == null ? "" : key.validator.toString()) + " | " + cell(key.documentation + passed) + " |\n";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The document with its table replaced by the generated one. */
    public static String replaceIn(String document, Map<String, String> flags) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the document has no settings table markers");
        }
        return document.substring(0, begin + BEGIN.length()) + "\n" + markdown(flags) + document.substring(end);
    }
}
