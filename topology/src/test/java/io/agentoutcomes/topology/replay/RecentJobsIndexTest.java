package io.agentoutcomes.topology.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The recent-jobs index: one entry per job, keyed so that key order is newest update first. */
class RecentJobsIndexTest {
    private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");
    private final String scope = "recent-" + UUID.randomUUID();
    private final Topics topics = new Topics("", Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + scope));
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, NodeFinished> events;

    RecentJobsIndexTest() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "recent-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(AgentOutcomesTopology.build(topics), props, T);
        events = driver.createInputTopic(topics.nodeFinished.name(), new StringSerializer(),
                topics.nodeFinished.valueSerde().serializer());
    }

    @AfterEach
    void close() {
        driver.close();
        MockSchemaRegistry.dropScope(scope);
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
        String newer = ReplayTopology.recentKey(T.plusMillis(1), "job-z");
        String older = ReplayTopology.recentKey(T, "job-a");

        assertThat(newer).isEqualTo(key(T.plusMillis(1)) + "|job-z").isLessThan(older);
        assertThat(ReplayTopology.jobIdOfRecentKey(newer)).isEqualTo("job-z");
    }

    private static String key(Instant updatedAt) {
        return String.format("%019d", Long.MAX_VALUE - updatedAt.toEpochMilli());
    }

    private void publish(String job, String node, Instant time) {
        events.pipeInput(job, NodeFinished.newBuilder().setJobId(job).setNodeId(node).setStepIndex(1).setAttempt(0)
                .setResultType(StepResultType.SUCCESS).build(), time);
    }

    private List<KeyValue<String, String>> index() {
        KeyValueStore<String, String> store = driver.getKeyValueStore("job-replay-recent");
        List<KeyValue<String, String>> entries = new ArrayList<>();
        try (KeyValueIterator<String, String> all = store.all()) {
            all.forEachRemaining(entries::add);
        }
        return entries;
    }
}
