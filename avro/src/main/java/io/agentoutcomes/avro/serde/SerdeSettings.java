package io.agentoutcomes.avro.serde;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.security.auth.login.AppConfigurationEntry;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;

/**
 * Reads serde settings from a Kafka config map, a setting under any of its names: the project's own first, then
 * Confluent's ({@code max.retries} and {@code schema.registry.max.retries}). Two names of one setting given different
 * values are refused, naming both.
 */
final class SerdeSettings {
    private final Map<String, ?> configs;

    SerdeSettings(Map<String, ?> configs) {
        this.configs = configs;
    }

    /** The value under the first of {@code names} that is set (as text; a {@link Password} as its value). */
    Optional<Named> value(String... names) {
        Named found = null;
        for (String name : names) {
            Object raw = configs.get(name);
            if (raw == null) {
                continue;
            }
            String text = raw instanceof Password password ? password.value() : raw.toString();
            if (found == null) {
                found = new Named(name, text);
            } else if (!found.text().trim().equals(text.trim())) {
                throw new ConfigException("Settings " + found.name() + " and " + name + " name the same thing and disagree"
                        + (raw instanceof Password ? "" : " (" + found.text() + " and " + text + ")") + ": set one");
            }
        }
        return Optional.ofNullable(found);
    }

    /** A setting that may be a secret; empty is not set. */
    Optional<String> secret(String... names) {
        return value(names).map(Named::text).filter(s -> !s.isEmpty());
    }

    String string(String fallback, String... names) {
        return value(names).map(v -> v.text().trim()).orElse(fallback);
    }

    boolean bool(boolean fallback, String... names) {
        return value(names).map(v -> {
            String text = v.text().trim();
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new ConfigException(v.name(), v.text(), "expected true or false");
            }
            return Boolean.parseBoolean(text);
        }).orElse(fallback);
    }

    long number(long fallback, long min, String... names) {
        return value(names).map(v -> {
            long number;
            try {
                number = Long.parseLong(v.text().trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(v.name(), v.text(), "expected a whole number");
            }
            if (number < min) {
                throw new ConfigException(v.name(), v.text(), "must be at least " + min);
            }
            return number;
        }).orElse(fallback);
    }

    /**
     * {@code basic.auth.credentials.source=SASL_INHERIT}: the {@code user:password} of the Kafka clients'
     * {@code sasl.jaas.config} (the {@code username} and {@code password} options of its PLAIN or SCRAM login module),
     * as Confluent's client takes them.
     */
    String saslUserInfo(String sourceSetting) {
        Optional<String> jaas = secret(SaslConfigs.SASL_JAAS_CONFIG);
        String needs = sourceSetting + "=SASL_INHERIT needs " + SaslConfigs.SASL_JAAS_CONFIG
                + " with a username and a password (PlainLoginModule or ScramLoginModule)";
        if (jaas.isEmpty()) {
            throw new ConfigException(needs + "; none is set");
        }
        List<AppConfigurationEntry> entries;
        try {
            entries = JaasContext.loadClientContext(Map.of(SaslConfigs.SASL_JAAS_CONFIG, new Password(jaas.get())))
                    .configurationEntries();
        } catch (RuntimeException e) {
            throw new ConfigException(needs + "; it cannot be read: " + e.getClass().getSimpleName());
        }
        return entries.stream().map(AppConfigurationEntry::getOptions)
                .filter(options -> options.get("username") != null && options.get("password") != null)
                .map(options -> Objects.toString(options.get("username")) + ":" + Objects.toString(options.get("password")))
                .findFirst()
                .orElseThrow(() -> new ConfigException(needs + "; its login module has no username and password"));
    }

    /** A value and the name it was given under. */
    record Named(String name, String text) {
    }
}
