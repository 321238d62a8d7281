package io.agentoutcomes.app.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import io.agentoutcomes.app.config.LogFormat;
import java.net.URL;
import java.util.Set;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Chooses the log format once the configuration is read: {@code logback.xml} (text, the default Logback loads by
 * itself) or {@code logback-json.xml} (one JSON object per line, logstash-logback-encoder). Both write to standard
 * error, with Kafka's own loggers at WARN, and hide the configured secrets ({@link LogMasking}).
 */
public final class Logging {
    private Logging() {
    }

    public static void configure(LogFormat format, Set<String> secrets) {
        LogMasking.hide(secrets);
        load(Logging.class.getResource(format == LogFormat.JSON ? "/logback-json.xml" : "/logback.xml"));
    }

    /** Logback's own configuration again (logback-test.xml in tests), the secrets kept. */
    public static void reset() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            context.reset();
            try {
                new ContextInitializer(context).autoConfig();
            } catch (JoranException e) {
                throw new IllegalStateException("Logback's configuration cannot be read: " + e.getMessage(), e);
            }
        }
    }

    private static void load(URL configuration) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return; // another slf4j binding (a library's test set-up): it keeps its own format
        }
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        try {
            configurator.doConfigure(configuration);
        } catch (JoranException e) {
            throw new IllegalStateException("Logback's configuration " + configuration + " cannot be read: " + e.getMessage(), e);
        }
    }
}
