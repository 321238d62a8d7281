package io.agentoutcomes.app;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, at start, for something the service cannot work without (an external Kafka, a schema registry), for as long
 * as it takes: a supervisor that starts the service beside its Kafka (compose, Kubernetes) sees it live and unready
 * meanwhile, and the log says what it waits for, instead of a process that exits and is restarted in a loop.
 */
final class StartupWait {
    private static final Logger LOG = LoggerFactory.getLogger(StartupWait.class);
    /** How often the log says it is still waiting. */
    static final Duration LOG_EVERY = Duration.ofSeconds(30);

    /** One try; any exception means "not yet". */
    interface Attempt<T> {
        T call() throws Exception;
    }

    private StartupWait() {
    }

    /**
     * Calls {@code attempt} until it succeeds, {@code retryEvery} apart, telling {@code status} (the health endpoints)
     * what it waits for and logging it at once and every {@link #LOG_EVERY}.
     *
     * @param what   what is waited for, as the log and {@code /health} say it: "Kafka at broker:9092 (bootstrap.servers)"
     * @param notYet which failures mean "not there yet"; any other is the answer, and ends the wait with it
     * @throws InterruptedIOException when interrupted (the service is stopping)
     */
    static <T> T until(String what, Attempt<T> attempt, Predicate<Exception> notYet, Consumer<String> status,
                       Duration retryEvery) throws IOException {
        long started = System.nanoTime();
        long nextLog = 0;
        while (true) {
            try {
                T result = attempt.call();
                if (nextLog != 0) {
                    LOG.info("{} answered after {} s", what, seconds(started));
                }
                return result;
            } catch (Exception e) {
                if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                    throw interrupted(what);
                }
                if (!notYet.test(e)) {
                    throw e instanceof RuntimeException runtime ? runtime
                            : new IllegalStateException(what + " answered with an error: " + cause(e), e);
                }
                String cause = cause(e);
                status.accept("waiting for " + what + ": " + cause);
                if (nextLog == 0) {
                    LOG.warn("Waiting for {}: {}. /health/live answers 200 and /health/ready 503 until it answers", what, cause);
                    nextLog = System.nanoTime() + LOG_EVERY.toNanos();
                } else if (System.nanoTime() >= nextLog) {
                    LOG.warn("Still waiting for {} after {} s: {}", what, seconds(started), cause);
                    nextLog = System.nanoTime() + LOG_EVERY.toNanos();
                }
            }
            try {
                Thread.sleep(retryEvery.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw interrupted(what);
            }
        }
    }

    private static InterruptedIOException interrupted(String what) {
        return new InterruptedIOException("Stopped while waiting for " + what);
    }

    private static long seconds(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos).toSeconds();
    }

    /**
     * The first message, without the wrapping of futures, and the root cause's when it is another exception's: a Kafka
     * client that cannot be created says only "Failed to create new KafkaAdminClient", its reason in the cause.
     */
    private static String cause(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        while (cause.getCause() != null && cause.getCause() != cause && cause.getMessage() == null) {
            cause = cause.getCause();
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return described(cause) + (root == cause || root.getMessage() == null ? "" : ", caused by " + described(root));
    }

    private static String described(Throwable e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
