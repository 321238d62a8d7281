package io.agentoutcomes.app.streams;

import java.util.function.Consumer;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a stream thread's death means. A schema registry outage passes: the thread is replaced, and with
 * exactly-once its work since the last commit is done again, so no record is lost or rejected. Anything else is
 * fatal for this instance: Kafka Streams shuts down and {@code onFatal} is told, so the process can exit with an
 * error for its supervisor to restart it, instead of staying alive and idle.
 */
public final class StreamThreadFailureHandler implements StreamsUncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StreamThreadFailureHandler.class);
    private final Consumer<Throwable> onFatal;

    public StreamThreadFailureHandler(Consumer<Throwable> onFatal) {
        this.onFatal = onFatal;
    }

    @Override
    public StreamThreadExceptionResponse handle(Throwable exception) {
        if (Failures.isRegistryOutage(exception)) {
            LOG.warn("Stream thread stopped by a schema registry outage; replacing it: {}", exception.getMessage());
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        }
        LOG.error("Fatal error in a stream thread; shutting this instance down", exception);
        onFatal.accept(exception);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }
}
