package io.agentoutcomes.bench;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.analytics.LivePartial;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.time.Instant;
import java.util.Random;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The analytics' per-record work, as the topology's local pre-aggregation does it: the outcome's key, then its
 * tokens, cost, counts and duration added in place to the live partial of that key ({@code LivePartial.add}).
 */
@State(Scope.Benchmark)
public class AnalyticsBenchmark {
    private ClassifiedOutcome outcome;
    private LivePartial partial;

    @Setup
    public void setUp() {
        outcome = Classification.classify(Workload.avro(7, 1000), TaskAttempts.newBuilder().build(), RetryPolicy.defaults(),
                Instant.parse("2026-11-01T00:00:00Z"), new Random(1));
        partial = LivePartial.of(Dimensions.of(outcome));
    }

    @Benchmark
    public LivePartial accumulate(Blackhole blackhole) {
        blackhole.consume(Dimensions.of(outcome));
        return partial.add(outcome);
    }
}
