package io.agentoutcomes.app.config;

import java.util.function.UnaryOperator;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/** {@link ConfigDef#define} with a group and its order, one line per setting. */
final class Declarations {
    private final ConfigDef def = new ConfigDef();
    private String group;
    private int order;

    Declarations group(String name) {
        group = name;
        order = 0;
        return this;
    }

    Declarations define(String name, Type type, Object defaultValue, ConfigDef.Validator validator, String doc) {
        def.define(name, type, defaultValue, validator, Importance.MEDIUM, doc, group, ++order, Width.NONE, name);
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
