package io.agentoutcomes.app.config;

import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** {@link ConfigDef#define} with a group ({@link Headings}) and its order, one line per setting. */
final class Declarations {
    private final ConfigDef def = new ConfigDef();
    private final Map<String, Integer> orders = new HashMap<>();
    private String group;

    /** The group the next settings are declared under; a group may be entered again, by another settings group. */
    Declarations group(String name) {
        group = name;
        return this;
    }

    Declarations define(String name, Type type, Object defaultValue, ConfigDef.Validator validator, String doc) {
        def.define(name, type, defaultValue, validator, Importance.MEDIUM, doc, group, orders.merge(group, 1, Integer::sum),
                Width.NONE, name);
        return this;
    }

    /** The declarations of a group kept in a class of its own. */
    Declarations declare(UnaryOperator<Declarations> group) {
        return group.apply(this);
    }

    ConfigDef configDef() {
        return def;
    }
}
