package io.agentoutcomes.app.config;

import java.util.function.Predicate;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Settings whose names carry a value, one per error code, category or agent ({@code policy.code.<code>}): a
 * {@code ConfigDef} declares names, so each family is declared here once, as the pattern the settings table shows
 * and a test for whether a name belongs to it. Their values are parsed where the name's parts are understood
 * ({@link RetryPolicyConfig}).
 *
 * @param pattern  the names, as the settings table shows them, e.g. {@code policy.code.<code>}
 * @param example  one name of the family, whose environment variable the table shows
 * @param group    the table group it is listed under (one of the {@code ConfigDef}'s groups)
 * @param type     the type of its values
 * @param values   the valid values, as the table shows them
 * @param fallback what applies when no setting of the family is given
 * @param doc      what it does
 * @param member   whether a setting name belongs to the family
 */
public record SettingFamily(String pattern, String example, String group, ConfigDef.Type type, String values, String fallback, String doc,
        Predicate<String> member) {

    public boolean matches(String name) {
        return member.test(name);
    }
}
