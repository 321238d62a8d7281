package io.agentoutcomes.app.config;

import org.apache.kafka.common.config.ConfigException;

/** A configuration that cannot be used; its message says which setting and why. */
public final class ConfigError extends ConfigException {
    public ConfigError(String message) {
        super(message);
    }
}
