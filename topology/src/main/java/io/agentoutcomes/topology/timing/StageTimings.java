package io.agentoutcomes.topology.timing;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.streams.processor.TaskId;

/**
 * The time each processor node of the pipeline spent in its {@code process} calls, and how many calls: filled by
 * {@link StageTimingWrapper}, read by the application's meter. One per Kafka Streams application; a node's figures
 * are summed over the tasks and stream threads of this instance. Its nodes are the topology's, so the set is bounded
 * and known once the topology is built.
 */
public final class StageTimings {
    /**
     * The Kafka Streams setting the application hands its timings to the wrapper under: an object, not a string,
     * read back from the settings the topology is built with; absent, the wrapper times nothing.
     */
    public static final String CONFIG = "agent-outcomes.stage.timings";

    /** One node's calls and their own time (its work and that of the sinks it writes to), nanoseconds. */
    public static final class Node {
        private final LongAdder calls = new LongAdder();
        private final LongAdder nanos = new LongAdder();

        void add(long ownNanos) {
            calls.increment();
            nanos.add(ownNanos);
        }

        public long calls() {
            return calls.sum();
        }

        public long nanos() {
            return nanos.sum();
        }
    }

    /**
     * Per task: the time spent so far in wrapped nodes below the one running. A task's nodes run on one thread at a
     * time and call each other only within the task, so each task needs one counter and no thread-local look-up.
     */
    static final class Below {
        long nanos;
    }

    private final Map<String, Node> nodes = new ConcurrentHashMap<>();
    private final Map<TaskId, Below> below = new ConcurrentHashMap<>();

    /** The timings handed over in {@code settings} under {@link #CONFIG}, or null if none are. */
    public static StageTimings from(Map<?, ?> settings) {
        return settings.get(CONFIG) instanceof StageTimings timings ? timings : null;
    }

    /** The figures of a node, created at its first use. */
    Node node(String name) {
        return nodes.computeIfAbsent(name, n -> new Node());
    }

    Below below(TaskId task) {
        return below.computeIfAbsent(task, t -> new Below());
    }

    /** Every node timed so far, by name. */
    public SortedMap<String, Node> nodes() {
        return new TreeMap<>(nodes);
    }
}
