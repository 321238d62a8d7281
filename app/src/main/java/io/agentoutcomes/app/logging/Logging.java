package io.agentoutcomes.app.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import io.agentoutcomes.app.config.LogFormat;
import java.net.URL;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Chooses the log format once the configuration is read: {@code logback.xml} (text, the default Logback loads by
 * itself) or {@code logback-json.xml} (one JSON object per line, logstash-logback-encoder). Both write to standard
 * error, with Kafka's own loggers at WARN, and hide the configured secrets ({@link LogMasking}). With the embedded
 * broker, Kafka's own lines (broker, clients, Kafka Streams) go to a file instead ({@code logback-kafka-file.xml},
 * {@code logback-json-kafka-file.xml}): what the terminal shows is the service's own.
 */
public final class Logging {
    private Logging() {
    }

    /** The Logback property naming the file of Kafka's own lines. */
    static final String KAFKA_LOG_FILE_PROPERTY = "agent-outcomes.kafka.log.file";

    public static void configure(LogFormat format, Set<String> secrets) {
        configure(format, secrets, Optional.empty());
    }

    /**
     * @param kafkaLogFile where Kafka's own log lines go instead of standard error (the embedded broker's data
     *                     directory), or empty to keep them on standard error
     */
    public static void configure(LogFormat format, Set<String> secrets, Optional<Path> kafkaLogFile) {
        LogMasking.hide(secrets);
        LoggerContext context = load(Logging.class.getResource(format == LogFormat.JSON ? "/logback-json.xml" : "/logback.xml"),
                null);
        if (context != null && kafkaLogFile.isPresent()) {
            load(Logging.class.getResource(format == LogFormat.JSON ? "/logback-json-kafka-file.xml" : "/logback-kafka-file.xml"),
                    kafkaLogFile.get().toAbsolutePath().toString());
        }
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

    /**
     * Loads a configuration: the first one ({@code kafkaLogFile} null) from scratch, a further one over it with the
     * file of Kafka's lines set. Null when Logback is not the binding.
     */
    private static LoggerContext load(URL configuration, String kafkaLogFile) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext context)) {
            return null; // another slf4j binding (a library's test set-up): it keeps its own format
        }
        if (kafkaLogFile == null) {
            context.reset();
        } else {
            context.putProperty(KAFKA_LOG_FILE_PROPERTY, kafkaLogFile);
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        try {
            configurator.doConfigure(configuration);
        } catch (JoranException e) {
            throw new IllegalStateException("Logback's configuration " + configuration + " cannot be read: " + e.getMessage(), e);
        }
        return context;
    }
}
