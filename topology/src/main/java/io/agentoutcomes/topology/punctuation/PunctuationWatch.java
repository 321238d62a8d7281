package io.agentoutcomes.topology.punctuation;

import java.time.Duration;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * Told how each scheduled punctuation of the pipeline ended, so a stage that cannot make progress is seen: the
 * application counts the failures and ends the process after a run of them ({@code app/streams}). A punctuation that
 * throws still goes on to Kafka Streams' processing exception handler, which resumes; only the watch sees a success.
 * Called from every stream thread; every punctuator of the pipeline is scheduled through {@link #schedule}.
 */
public interface PunctuationWatch {
    /**
     * The Kafka Streams setting the application hands its watch to the processors under: an object, not a string,
     * read back from the processor context's {@code appConfigs()}; absent, {@link #NONE}.
     */
    String CONFIG = "agent-outcomes.punctuation.watch";

    /** Watches nothing (tests, the bench, {@code explain}). */
    PunctuationWatch NONE = new PunctuationWatch() {
        @Override
        public void succeeded(Punctuators punctuator, TaskId task) {
        }

        @Override
        public void failed(Punctuators punctuator, TaskId task, RuntimeException failure) {
        }
    };

    void succeeded(Punctuators punctuator, TaskId task);

    void failed(Punctuators punctuator, TaskId task, RuntimeException failure);

    /**
     * Schedules {@code punctuate} as {@code punctuator} every {@code interval} of wall-clock time in the processor's
     * {@code context}, telling the watch of the context's application ({@link #CONFIG}) how each run ends; a failure
     * is rethrown, for Kafka Streams' processing exception handler.
     */
    static Cancellable schedule(Punctuators punctuator, ProcessorContext<?, ?> context, Duration interval,
                                Punctuator punctuate) {
        PunctuationWatch watch = context.appConfigs().get(CONFIG) instanceof PunctuationWatch given ? given : NONE;
        TaskId task = context.taskId();
        return context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, timestamp -> {
            try {
                punctuate.punctuate(timestamp);
            } catch (RuntimeException e) {
                watch.failed(punctuator, task, e);
                throw e;
            }
            watch.succeeded(punctuator, task);
        });
    }
}
