package io.agentoutcomes.app.http.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.kafka.StreamsProgress;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

class StreamsHealthTest {
    private final StreamsProgress progress = new StreamsProgress();

    private StreamsHealth now(State state) {
        progress.stateChanged(state);
        return new StreamsHealth(state, progress.restoring(), progress.hasRun());
    }

    @Test
    void theFirstAssignmentIsWaitedFor() {
        assertThat(now(State.CREATED).whyNotReady()).isEqualTo("Kafka Streams is CREATED, not RUNNING");
        assertThat(now(State.REBALANCING).whyNotReady())
                .isEqualTo("Kafka Streams is REBALANCING, taking its first assignment");
        assertThat(now(State.RUNNING).whyNotReady()).isNull();
    }

    /**
     * Issue 29 item 5: after an instance of two is killed, its two group members (one per stream thread) can expire one
     * session after the other, and the survivor rebalances twice. It keeps its tasks running through both (cooperative
     * rebalancing), so it stays ready; before, it was unready until the second rebalance ended (11.2 s after the kill).
     */
    @Test
    void aRebalanceAfterTheFirstAssignmentKeepsTheInstanceReady() {
        now(State.CREATED);
        now(State.REBALANCING);
        now(State.RUNNING);
        StreamsHealth rebalancing = now(State.REBALANCING);
        assertThat(rebalancing.whyNotReady()).isNull();
        assertThat(rebalancing.live()).isTrue();
        // a query over every partition of a store still waits: partitions are moving
        assertThat(rebalancing.whyIncomplete()).isEqualTo("Kafka Streams is REBALANCING, not RUNNING");
    }

    @Test
    void aStoreBeingRestoredMakesTheInstanceUnreadyInAnyState() {
        now(State.REBALANCING);
        now(State.RUNNING);
        progress.onRestoreStart(new TopicPartition("app-task-states-changelog", 3), "task-states", 0, 100);
        assertThat(now(State.REBALANCING).whyNotReady()).isEqualTo("1 store partitions are being restored");
        assertThat(now(State.RUNNING).whyIncomplete()).isEqualTo("1 store partitions are being restored");
        progress.onRestoreEnd(new TopicPartition("app-task-states-changelog", 3), "task-states", 100);
        assertThat(now(State.RUNNING).whyNotReady()).isNull();
        assertThat(now(State.RUNNING).whyIncomplete()).isNull();
    }

    @Test
    void aStoppedOrFailedInstanceIsNeitherReadyNorLive() {
        now(State.RUNNING);
        for (State state : new State[] {State.PENDING_SHUTDOWN, State.NOT_RUNNING, State.PENDING_ERROR, State.ERROR}) {
            StreamsHealth health = now(state);
            assertThat(health.whyNotReady()).isEqualTo("Kafka Streams is " + state + ", not RUNNING");
            assertThat(health.live()).isFalse();
        }
    }
}
