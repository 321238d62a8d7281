package io.agentoutcomes.topology.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.topology.StageDriver;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The recent-jobs index: one entry per job, keyed so that key order is newest update first. */
class RecentJobsIndexTest {
    private static final Instant T = StageDriver.T0;
    private final StageDriver pipeline = StageDriver.pipeline();
    private final TestInputTopic<String, NodeFinished> events = pipeline.input(pipeline.topics.nodeFinished);

    @AfterEach
    void close() {
        pipeline.close();
    }

    @Test
    void theIndexHoldsEachJobOnceNewestUpdateFirst() {
        publish("job-a", "n1", T);
        publish("job-b", "n1", T.plusSeconds(2));
        publish("job-c", "n1", T.plusSeconds(1));
        publish("job-a", "n2", T.plusSeconds(3));
        publish("job-c", "n1", T.plusSeconds(9)); // a duplicate: no change of state, job-c keeps its entry

        assertThat(index()).containsExactly(
                KeyValue.pair(key(T.plusSeconds(3)) + "|job-a", "job-a"),
                KeyValue.pair(key(T.plusSeconds(2)) + "|job-b", "job-b"),
                KeyValue.pair(key(T.plusSeconds(1)) + "|job-c", "job-c"));
    }

    @Test
    void theIndexKeyOrdersNewestFirstAndGivesTheJobBack() {
        String newer = ReplayStores.recentKey((T.plusMillis(1)).toEpochMilli(), "job-z");
        String older = ReplayStores.recentKey(T.toEpochMilli(), "job-a");

        assertThat(newer).isEqualTo(key(T.plusMillis(1)) + "|job-z").isLessThan(older);
        assertThat(ReplayStores.jobIdOfRecentKey(newer)).isEqualTo("job-z");
    }

    private static String key(Instant updatedAt) {
        return String.format("%019d", Long.MAX_VALUE - updatedAt.toEpochMilli());
    }

    private void publish(String job, String node, Instant time) {
        events.pipeInput(job, NodeFinished.newBuilder().setJobId(job).setNodeId(node).setStepIndex(1).setAttempt(0)
                .setResultType(StepResultType.SUCCESS).build(), time);
    }

    private List<KeyValue<String, String>> index() {
        return pipeline.entries(ReplayStores.RECENT_STORE);
    }
}
