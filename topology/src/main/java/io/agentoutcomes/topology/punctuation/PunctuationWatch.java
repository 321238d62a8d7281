package io.agentoutcomes.topology.punctuation;

import org.apache.kafka.streams.processor.TaskId;

/**
 * Told how each scheduled punctuation of the pipeline ended, so a stage that cannot make progress is seen: the
 * application counts the failures and ends the process after a run of them ({@code app/streams}). A punctuation that
 * throws still goes on to Kafka Streams' processing exception handler, which resumes; only the watch sees a success.
 * Called from every stream thread.
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
}
