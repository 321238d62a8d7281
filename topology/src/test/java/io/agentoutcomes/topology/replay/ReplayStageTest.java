package io.agentoutcomes.topology.replay;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Decision;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.JobStatus;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replay stage alone ({@link ReplayFold}): node outcomes, each with the classifier's decision, as the classifier
 * emits them (keyed {@code jobId/nodeId}), folded into each job's state, published keyed by job.
 */
class ReplayStageTest {
    private final StageDriver stage = StageDriver.stage((builder, topics) -> ReplayTopology.build(builder, topics,
            builder.stream(topics.outcomesClassified.name(), topics.outcomesClassified.consumed()),
            ReplayLimits.defaults()));
    private final TestInputTopic<String, ClassifiedOutcome> outcomes = stage.input(stage.topics.outcomesClassified);
    private final TestOutputTopic<String, JobReplayState> states = stage.output(stage.topics.replayState);

    @AfterEach
    void close() {
        stage.close();
    }

    private static NodeFinished event(String job, String node, int step, StepResultType type) {
        return NodeFinished.newBuilder().setJobId(job).setNodeId(node).setStepIndex(step).setAttempt(0)
                .setResultType(type).setPayloadResults("{\"" + node + "\":true}").build();
    }

    private void publish(NodeFinished event, Decision decision, Instant at) {
        String task = event.getJobId() + "/" + event.getNodeId();
        outcomes.pipeInput(task, ClassifiedOutcome.newBuilder().setTaskId(task)
                .setResultId(task + "/" + event.getAttempt() + "/" + event.getResultType())
                .setJobId(event.getJobId()).setNodeId(event.getNodeId()).setAttempt(event.getAttempt())
                .setResultType(ResultType.valueOf(event.getResultType().name())).setReason("test")
                .setDecision(decision).setClassifiedAt(at.toEpochMilli()).setNodeFinished(event).build(), at);
    }

    private static Decision decision(ErrorHandling handling, StopReason stop) {
        return Decision.newBuilder().setHandling(handling).setRule("test").setReason("test").setConsecutiveFailures(1)
                .setTotalFailures(1).setMaxRetries(5).setStopReason(stop).build();
    }

    private JobReplayState stored(String job) {
        ValueAndTimestamp<JobReplayState> state = stage.driver.<String, JobReplayState>getTimestampedKeyValueStore(
                ReplayStores.STORE).get(job);
        return state == null ? null : state.value();
    }

    @Test
    void eachNodeOutcomeIsFoldedIntoItsJobsStatePublishedKeyedByJobAndIndexedByUpdateTime() {
        publish(event("job-1", "n1", 1, StepResultType.SUCCESS), null, T0);
        publish(event("job-2", "n1", 1, StepResultType.SUCCESS), null, T0.plusSeconds(1));
        publish(event("job-1", "n2", 2, StepResultType.SUCCESS), null, T0.plusSeconds(2));

        List<KeyValue<String, JobReplayState>> published = states.readKeyValuesToList();
        assertThat(published).extracting(kv -> kv.key).containsExactly("job-1", "job-2", "job-1");
        JobReplayState job1 = published.get(2).value;
        assertThat(job1.getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(job1.getCompletedNodeIds()).containsExactly("n1", "n2");
        assertThat(job1.getCursorNode()).isEqualTo("n2");
        assertThat(job1.getPayloadResults()).isEqualTo(Map.of("n1", "{\"n1\":true}", "n2", "{\"n2\":true}"));
        assertThat(job1.getUpdatedAt()).isEqualTo(T0.plusSeconds(2).toEpochMilli());
        assertThat(stored("job-1")).isEqualTo(job1);
        assertThat(stored("job-2")).isEqualTo(published.get(1).value);
        assertThat(stage.<String, String>entries(ReplayStores.RECENT_STORE)).containsExactly(
                KeyValue.pair(ReplayStores.recentKey((T0.plusSeconds(2)).toEpochMilli(), "job-1"), "job-1"),
                KeyValue.pair(ReplayStores.recentKey((T0.plusSeconds(1)).toEpochMilli(), "job-2"), "job-2"));
    }

    @Test
    void aRetryableFailureTheClassifierStoppedFailsTheJobWithTheStopReasonOnTheNode() {
        publish(event("job-1", "n1", 1, StepResultType.RETRYABLE_FAILURE), decision(ErrorHandling.STOP,
                StopReason.RETRY_LIMIT), T0);

        JobReplayState state = states.readValue();
        assertThat(state.getStatus()).isEqualTo(JobStatus.FAILED);
        assertThat(state.getNodes()).hasSize(1);
        assertThat(state.getNodes().get(0).getStopReason()).isEqualTo(StopReason.RETRY_LIMIT);
        assertThat(state.getNodes().get(0).getAttempts()).extracting(a -> a.getStopReason())
                .containsExactly(StopReason.RETRY_LIMIT);
        assertThat(states.isEmpty()).isTrue();
    }

    @Test
    void aRetryableFailureTheClassifierRetriesLeavesTheJobRunning() {
        publish(event("job-1", "n1", 1, StepResultType.RETRYABLE_FAILURE), decision(ErrorHandling.RETRY, null), T0);

        JobReplayState state = states.readValue();
        assertThat(state.getStatus()).isEqualTo(JobStatus.RUNNING);
        assertThat(state.getCompletedNodeIds()).isEmpty();
        assertThat(state.getNodes().get(0).getStopReason()).isNull();
        assertThat(state.getNodes().get(0).getAttempts()).extracting(a -> a.getResultType())
                .containsExactly(StepResultType.RETRYABLE_FAILURE);
    }

    @Test
    void aRedeliveredEventChangesNothingAndPublishesNothing() {
        NodeFinished event = event("job-1", "n1", 1, StepResultType.COMPENSATABLE_FAILURE);
        publish(event, null, T0);
        publish(event, null, T0.plusSeconds(5));

        assertThat(states.readValuesToList()).extracting(JobReplayState::getStatus, JobReplayState::getCompensationPending)
                .containsExactly(tuple(JobStatus.FAILED, true));
        assertThat(stored("job-1").getUpdatedAt()).isEqualTo(T0.toEpochMilli());
        assertThat(stage.<String, String>entries(ReplayStores.RECENT_STORE))
                .containsExactly(KeyValue.pair(ReplayStores.recentKey(T0.toEpochMilli(), "job-1"), "job-1"));
    }

    @Test
    void anAgentsOutcomeHasNoNodeEventAndLeavesReplayStateAlone() {
        AgentResult result = AgentResult.newBuilder().setResultId("r-1").setAgentId("agent-1").setTaskId("task-1")
                .setOutcome(Success.newBuilder().build()).build();
        outcomes.pipeInput("task-1", ClassifiedOutcome.newBuilder().setTaskId("task-1").setResultId("r-1")
                .setAgentId("agent-1").setAttempt(0).setResultType(ResultType.SUCCESS).setReason("ok")
                .setClassifiedAt(T0.toEpochMilli()).setAgentResult(result).build(), T0);

        assertThat(states.isEmpty()).isTrue();
        assertThat(stage.entries(ReplayStores.RECENT_STORE)).isEmpty();
        assertThat(stored("task-1")).isNull();
    }
}
