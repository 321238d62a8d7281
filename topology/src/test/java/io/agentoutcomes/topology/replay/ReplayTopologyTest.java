package io.agentoutcomes.topology.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.JobStatus;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Replay state over the whole pipeline: node-finished events, with the classifier's decisions, folded per job. */
class ReplayTopologyTest {
    private static final Instant T = StageDriver.T0;
    private final StageDriver pipeline = StageDriver.pipeline();
    private final Topics topics = pipeline.topics;
    private final TopologyTestDriver driver = pipeline.driver;
    private final TestInputTopic<String, NodeFinished> events = pipeline.input(topics.nodeFinished);
    private final TestOutputTopic<String, JobReplayState> states = pipeline.output(topics.replayState);

    @AfterEach
    void close() {
        pipeline.close();
    }

    private static NodeFinished event(String node, int step, StepResultType type) {
        return NodeFinished.newBuilder().setJobId("job-1").setNodeId(node).setStepIndex(step).setAttempt(0)
                .setResultType(type).setPayloadResults("{\"" + node + "\":true}").build();
    }

    @Test
    void everyChangeIsPublishedKeyedByJobAndKeptInTheQueryableStore() {
        events.pipeInput("job-1", event("n1", 1, StepResultType.SUCCESS), T);
        events.pipeInput("job-1", event("n2", 2, StepResultType.COMPENSATABLE_FAILURE), T.plusSeconds(1));
        events.pipeInput("job-1", event("n2", 2, StepResultType.COMPENSATABLE_FAILURE), T.plusSeconds(2));

        List<KeyValue<String, JobReplayState>> published = states.readKeyValuesToList();
        assertThat(published).extracting(kv -> kv.key).containsExactly("job-1", "job-1");
        assertThat(published).extracting(kv -> kv.value.getStatus()).containsExactly(JobStatus.RUNNING,
                JobStatus.FAILED);
        JobReplayState last = published.get(1).value;
        assertThat(last.getCompensationPending()).isTrue();
        assertThat(last.getCompletedNodeIds()).containsExactly("n1");
        assertThat(last.getPayloadResults()).isEqualTo(Map.of("n1", "{\"n1\":true}"));
        KeyValueStore<String, ValueAndTimestamp<JobReplayState>> store = driver.getTimestampedKeyValueStore(ReplayStores.STORE);
        assertThat(store.get("job-1").value()).isEqualTo(last);
        assertThat(topics.replayState.cleanup()).isEqualTo(Topics.Cleanup.COMPACT);
    }

    @Test
    void seed001ARetryableFailureWhoseRetriesRanOutFailsTheJobWithTheStopReasonOnTheNode() {
        for (int attempt = 0; attempt < 5; attempt++) {
            events.pipeInput("job-1", NodeFinished.newBuilder(event("n1", 1, StepResultType.RETRYABLE_FAILURE))
                    .setAttempt(attempt).setReason("timeout").build(), T.plusSeconds(attempt));
        }

        List<JobReplayState> published = states.readValuesToList();
        assertThat(published).extracting(JobReplayState::getStatus).containsExactly(JobStatus.RUNNING, JobStatus.RUNNING,
                JobStatus.RUNNING, JobStatus.RUNNING, JobStatus.FAILED);
        JobReplayState last = published.get(4);
        assertThat(last.getNodes().get(0).getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(last.getNodes().get(0).getAttempts()).extracting(a -> a.getStopReason())
                .containsExactly(null, null, null, null, StopReason.RETRY_LIMIT);
        assertThat(driver.getTimestampedKeyValueStore(ReplayStores.STORE).get("job-1")).extracting(v -> 
                ((JobReplayState) v.value()).getStatus()).isEqualTo(JobStatus.FAILED);
    }

    @Test
    void seed001RetryableFailuresWithoutAttemptNumbersFailTheJobOnceThePipelineStopsThem() {
        for (int i = 0; i < 5; i++) {
            events.pipeInput("job-1", NodeFinished.newBuilder(event("n1", 1, StepResultType.RETRYABLE_FAILURE))
                    .setReason("timeout " + i).build(), T.plusSeconds(i));
        }

        JobReplayState last = states.readValuesToList().stream().reduce((a, b) -> b).orElseThrow();
        assertThat(last.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(last.getNodes().get(0).getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
    }

    @Test
    void aJobOfTwentyFiveNodesWithSixtyKilobytePayloadsStaysWithinTheStateLimitWithLargePayloadsSummarized() {
        String payload = "{\"text\":\"" + "x".repeat(60 * 1024) + "\"}";
        for (int node = 1; node <= 25; node++) {
            events.pipeInput("job-1", NodeFinished.newBuilder(event("n" + node, node, StepResultType.SUCCESS))
                    .setPayloadResults(payload).build(), T.plusSeconds(node));
        }

        List<JobReplayState> published = states.readValuesToList();
        assertThat(published).hasSize(25);
        JobReplayState last = published.get(24);
        assertThat(last.getCompletedNodeIds()).hasSize(25);
        int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
        assertThat(last.getPayloadResults()).hasSize(25)
                .allSatisfy((node, kept) -> assertThat(kept).isEqualTo("{\"summarized\":true,\"bytes\":" + bytes + "}"));
        for (JobReplayState state : published) {
            assertThat(topics.replayState.valueSerde().serializer().serialize(topics.replayState.name(), state).length)
                    .isLessThan(ReplayLimits.defaults().maxStateBytes());
        }
    }

    @Test
    void smallPayloadsAreKeptWholeAndTheLargestAreSummarizedFirstWhenTheStateGrowsPastItsLimit() {
        String small = "{\"ok\":true}";
        String large = "y".repeat(10_000);
        JobReplayState state = ReplayState.empty("job-2");
        for (int node = 1; node <= 200; node++) {
            state = ReplayState.apply(state, NodeFinished.newBuilder(event("n" + node, node, StepResultType.SUCCESS))
                    .setJobId("job-2").setPayloadResults(node % 2 == 0 ? large : small).build(), T.plusSeconds(node));
        }
        JobReplayState bounded = ReplayBounds.fit(state, new ReplayLimits(16 * 1024, 1000, 600_000));

        assertThat(ReplayBounds.serializedSize(bounded)).isLessThanOrEqualTo(600_000);
        assertThat(bounded.getPayloadResults().entrySet().stream().filter(e -> e.getValue().equals(small)).count())
                .isEqualTo(100);
        assertThat(bounded.getPayloadResults().values()).contains(large, "{\"summarized\":true,\"bytes\":10000}");
        assertThat(bounded.getCompletedNodeIds()).hasSize(200);
    }
}
