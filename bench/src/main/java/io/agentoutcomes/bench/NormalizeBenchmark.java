package io.agentoutcomes.bench;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.ingest.AgentResultNormalizer;
import io.agentoutcomes.topology.ingest.RecordContext;
import java.time.Instant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** JSON of each input dialect to the canonical {@code AgentResult}: parse, map, validate (the ingest stage, per record). */
@State(Scope.Benchmark)
public class NormalizeBenchmark {
    @Param({"json-vat", "json-flatagents", "json-review"})
    public String dialect;

    private byte[] json;
    private RecordContext context;

    @Setup
    public void setUp() {
        Workload.Input input = Workload.Input.of(dialect);
        json = Workload.json(input, 7, 1000);
        context = new RecordContext("task-7", Workload.headers(input, 7), TopicNames.AGENT_RESULTS_JSON, 0, 7, Instant.parse("2026-11-01T00:00:00Z"));
    }

    @Benchmark
    public AgentResult normalize() {
        return AgentResultNormalizer.normalize(json, context);
    }
}
