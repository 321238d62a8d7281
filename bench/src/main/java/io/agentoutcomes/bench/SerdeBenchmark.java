package io.agentoutcomes.bench;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.TaskAttempts;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.classify.Classification;
import io.agentoutcomes.topology.classify.RetryPolicy;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The Avro serde (Confluent wire format, schema ids from an in-memory registry) on the pipeline's records: the
 * {@code AgentResult} it reads (about 105 bytes) and the {@code ClassifiedOutcome} it writes for each (and reads
 * again downstream).
 */
@State(Scope.Benchmark)
public class SerdeBenchmark {
    private Serializer<AgentResult> resultSerializer;
    private Deserializer<AgentResult> resultDeserializer;
    private Serializer<ClassifiedOutcome> outcomeSerializer;
    private Deserializer<ClassifiedOutcome> outcomeDeserializer;
    private AgentResult result;
    private byte[] resultBytes;
    private ClassifiedOutcome outcome;
    private byte[] outcomeBytes;

    @Setup
    public void setUp() {
        Map<String, Object> config = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://jmh-serde");
        resultSerializer = AvroSerde.specific(AgentResult.class).configured(config, false).serializer();
        resultDeserializer = AvroSerde.specific(AgentResult.class).configured(config, false).deserializer();
        outcomeSerializer = AvroSerde.specific(ClassifiedOutcome.class).configured(config, false).serializer();
        outcomeDeserializer = AvroSerde.specific(ClassifiedOutcome.class).configured(config, false).deserializer();
        result = Workload.avro(7, 1000);
        resultBytes = resultSerializer.serialize(TopicNames.AGENT_RESULTS, result);
        outcome = Classification.classify(result, TaskAttempts.newBuilder().build(), RetryPolicy.defaults(),
                Instant.parse("2026-11-01T00:00:00Z"), new Random(1));
        outcomeBytes = outcomeSerializer.serialize(TopicNames.OUTCOMES_CLASSIFIED, outcome);
    }

    @Benchmark
    public byte[] encodeAgentResult() {
        return resultSerializer.serialize(TopicNames.AGENT_RESULTS, result);
    }

    @Benchmark
    public AgentResult decodeAgentResult() {
        return resultDeserializer.deserialize(TopicNames.AGENT_RESULTS, resultBytes);
    }

    @Benchmark
    public byte[] encodeClassifiedOutcome() {
        return outcomeSerializer.serialize(TopicNames.OUTCOMES_CLASSIFIED, outcome);
    }

    @Benchmark
    public ClassifiedOutcome decodeClassifiedOutcome() {
        return outcomeDeserializer.deserialize(TopicNames.OUTCOMES_CLASSIFIED, outcomeBytes);
    }
}
