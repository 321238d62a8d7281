package io.agentoutcomes.app.metrics;

import io.agentoutcomes.topology.timing.StageTimings;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code agent_outcomes_stage_process_seconds{node}}: a summary per processor node of the pipeline (its count the
 * node's {@code process} calls, its sum their own time in seconds: the node's work and its sinks' serialization and
 * send, less the nodes it forwarded to), read from the {@link StageTimings} the processor wrapper fills, summed over
 * this instance's tasks and stream threads. A series per node of the topology, at 0 from the start; none when
 * {@code metrics.stage.timings.enabled=false}. Like Kafka Streams' sensors, a record processed again after a crash
 * counts again.
 */
public final class StageTimingMeters {
    public static final String METER = "agent_outcomes_stage_process";

    private StageTimingMeters() {
    }

    /**
     * Registers a timer per node of the timings the Streams settings hand the processor wrapper, once the topology is
     * built with them; nothing when they hand none (stage timing off). Micrometer holds a function timer's object
     * weakly: each node's figures are held by the topology's wrapper and processors, as long as Kafka Streams runs.
     */
    public static void register(MeterRegistry registry, Map<?, ?> streamsSettings) {
        StageTimings timings = StageTimings.from(streamsSettings);
        if (timings == null) {
            return;
        }
        timings.nodes().forEach((name, node) -> FunctionTimer.builder(METER, node, StageTimings.Node::calls,
                        StageTimings.Node::nanos, TimeUnit.NANOSECONDS).tag("node", name)
                .description("Calls of a processor node of the pipeline and their own time (less the nodes it forwarded to)")
                .register(registry));
    }
}
