package io.agentoutcomes.bench;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.analytics.DimensionCap;
import io.agentoutcomes.topology.analytics.Dimensions;
import io.agentoutcomes.topology.analytics.LivePartial;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The analytics' per-record work, as the topology's local pre-aggregation does it: the outcome's key (its dimensions,
 * the attribution ones held to their cap), then its tokens, cost, counts and duration added in place to the live
 * partial of that key ({@code LivePartial.add}). {@code dimensions}: the windows keyed as before the attribution
 * dimensions, and at the default (the tenant added), to see what the default costs per record.
 */
@State(Scope.Benchmark)
public class AnalyticsBenchmark {
    private static final long TIMESTAMP = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();

    @Param({"agent,model,provider", "agent,model,provider,tenant"})
    public String dimensions;
    private ClassifiedOutcome outcome;
    private LivePartial partial;
    private Set<Dimension> keyed;
    private DimensionCap cap;

    @Setup
    public void setUp() {
        outcome = Classification.classify(Workload.avro(7, 1000), TaskAttempts.newBuilder().build(), RetryPolicy.defaults(),
                Instant.parse("2026-11-01T00:00:00Z"), new Random(1));
        keyed = Dimension.parse(List.of(dimensions.split(",")));
        cap = new DimensionCap(keyed, 1000);
        partial = LivePartial.of(Dimensions.of(outcome, keyed));
    }

    @Benchmark
    public LivePartial accumulate(Blackhole blackhole) {
        // the hash is what the live partials' map look-up costs per record
        blackhole.consume(cap.admit(TIMESTAMP, Dimensions.of(outcome, keyed)).hashCode());
        return partial.add(outcome);
    }
}
