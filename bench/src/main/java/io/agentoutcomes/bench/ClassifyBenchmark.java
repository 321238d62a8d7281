package io.agentoutcomes.bench;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorCode;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Classification, policy and backoff of one decoded envelope, given its task's state (decode and state store
 * excluded): the call the topology and {@code explain} make. A success, a failure the default policy stops at once
 * ({@code llm-refusal}) and a retryable one ({@code llm-rate-limit}: backoff and tier), each on a task with history.
 */
@State(Scope.Benchmark)
public class ClassifyBenchmark {
    @Param({"success", "permanent-failure", "retryable-failure"})
    public String outcome;

    private AgentResult result;
    private TaskAttempts before;
    private RetryPolicy policy;
    private Instant now;
    private Random random;

    @Setup
    public void setUp() {
        result = switch (outcome) {
            case "success" -> Workload.avro(7, 1000);
            case "permanent-failure" -> Workload.avro(10, 1000);
            case "retryable-failure" -> AgentResult.newBuilder(Workload.avro(10, 1000))
                    .setOutcome(Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode(ErrorCode.LLM_RATE_LIMIT.value()).build()).build())
                    .build();
            default -> throw new IllegalArgumentException(outcome);
        };
        before = TaskAttempts.newBuilder().setAttempts(1).setConsecutiveFailures(1).setTotalFailures(1)
                .setRecentResultIds(List.of("r-1", "r-2", "r-3", "r-4")).build();
        policy = RetryPolicy.defaults();
        now = Instant.parse("2026-11-01T00:00:00Z");
        random = new Random(42);
    }

    @Benchmark
    public ClassifiedOutcome classify() {
        return Classification.classify(result, before, policy, now, random);
    }
}
