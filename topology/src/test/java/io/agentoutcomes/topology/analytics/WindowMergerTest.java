package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.analytics.SourceProgress.Report;
import io.agentoutcomes.topology.analytics.SourceProgress.State;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The merge step closes a window only when every source of partials that may still send for it is past its end plus
 * the grace: a restart's uneven catch-up (one task's later minutes first) must not close a window another task still
 * feeds (issue 19 item 1).
 */
class WindowMergerTest {
    private static final long MINUTE = 60_000;
    private static final Dimensions KEY = Dimensions.of("summarizer", "gpt-4o-mini", "openai");

    private MockProcessorContext<String, AgentMetrics> context;
    private KeyValueStore<String, AgentMetrics> windows;
    private KeyValueStore<Integer, Long> sources;
    private WindowMerger merger;

    @BeforeEach
    void setUp() {
        context = new MockProcessorContext<>();
        windows = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(WindowMerger.WINDOWS_STORE),
                Serdes.String(), AvroSerde.specific(AgentMetrics.class)
                        .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://window-merger"), false))
                .withLoggingDisabled().build();
        sources = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(WindowMerger.SOURCES_STORE),
                Serdes.Integer(), Serdes.Long()).withLoggingDisabled().build();
        windows.init(context.getStateStoreContext(), windows);
        sources.init(context.getStateStoreContext(), sources);
        context.addStateStore(windows);
        context.addStateStore(sources);
        start();
    }

    /** A merge task (re)starting on the stores as they are. */
    private void start() {
        merger = new WindowMerger(Duration.ofMinutes(1));
        merger.init(context);
    }

    private static String minute(long startMinute) {
        return new WindowKey(WindowSize.ONE_MINUTE, startMinute * MINUTE, KEY).encode();
    }

    private void partial(long startMinute, long attempts) {
        AgentMetrics partial = MetricsAggregator.empty(KEY);
        partial.setAttempts(attempts);
        merger.process(new Record<>(minute(startMinute), partial, startMinute * MINUTE));
    }

    private void progress(int source, State state, long time) {
        merger.process(new Record<>(new Report(source, state, time).key(), null, Math.max(0, time)));
    }

    /** The closed windows published so far, by start minute, with their attempts. */
    private Map<Long, Long> closed() {
        return context.forwarded().stream().map(MockProcessorContext.CapturedForward::record)
                .filter(record -> record.value().getWindowClosed())
                .collect(Collectors.toMap(record -> WindowKey.decode(record.key()).start() / MINUTE,
                        record -> record.value().getAttempts(), (a, b) -> b, TreeMap::new));
    }

    private long dropped() {
        return context.metrics().metrics().entrySet().stream()
                .filter(metric -> metric.getKey().name().equals("late-partials-dropped-total"))
                .mapToLong(metric -> ((Number) metric.getValue().metricValue()).longValue()).sum();
    }

    @Test
    void aSourceCatchingUpStillFeedsTheWindowsAFasterSourceIsPast() {
        // before a crash both sources had reported minute 0
        progress(0, State.BUSY, 30_000);
        progress(1, State.BUSY, 30_000);
        start();
        // after the restart source 0 is through its backlog first: its partials and progress reach minute 9
        partial(9, 4);
        progress(0, State.BUSY, 9 * MINUTE + 30_000);
        // source 1 is still reading minute 1's outcomes
        progress(1, State.BUSY, MINUTE + 10_000);
        partial(1, 3);
        assertThat(dropped()).isZero();
        assertThat(closed()).isEmpty();

        // source 1 catches up: minute 1 closes with everything, minute 9 stays open (9:30 < 9 + 1 + grace)
        progress(1, State.BUSY, 9 * MINUTE + 5_000);
        assertThat(closed()).containsExactly(Map.entry(1L, 3L));
        assertThat(dropped()).isZero();
    }

    @Test
    void anIdleSourceHoldsNothingBack() {
        partial(1, 2);
        progress(0, State.BUSY, 3 * MINUTE);
        progress(1, State.IDLE, 0);
        assertThat(closed()).containsExactly(Map.entry(1L, 2L));
    }

    @Test
    void aPartialForAWindowClosedByEverySourceIsDroppedAndCounted() {
        partial(1, 2);
        progress(0, State.BUSY, 4 * MINUTE);
        progress(1, State.BUSY, 4 * MINUTE);
        assertThat(closed()).containsExactly(Map.entry(1L, 2L));

        partial(1, 5);
        partial(0, 1);
        assertThat(dropped()).isEqualTo(2);
        assertThat(closed()).containsExactly(Map.entry(1L, 2L));
    }

    @Test
    void afterARestartWindowsWaitForEverySourceKnownBefore() {
        progress(0, State.BUSY, 2 * MINUTE);
        progress(1, State.BUSY, 2 * MINUTE);
        assertThat(sources.get(0)).isEqualTo(2 * MINUTE);

        start();
        // only source 0 has reported since: source 1 may still send minute 2's partials
        progress(0, State.BUSY, 8 * MINUTE);
        partial(2, 7);
        assertThat(dropped()).isZero();
        assertThat(closed()).isEmpty();

        // a starting source holds the windows back to its last time until it aggregates or turns idle
        progress(1, State.STARTING, -1);
        assertThat(closed()).isEmpty();
        progress(1, State.IDLE, -1);
        assertThat(closed()).containsExactly(Map.entry(2L, 7L));
    }

    @Test
    void progressGoesToEveryPartitionAndPartialsByTheirKey() {
        SourceProgress.Partitioner<AgentMetrics> partitioner = new SourceProgress.Partitioner<>();
        assertThat(partitioner.partitions("t", new Report(2, State.BUSY, 5).key(), null, 3)).contains(Set.of(0, 1, 2));
        assertThat(partitioner.partitions("t", minute(1), MetricsAggregator.empty(KEY), 3)).isEmpty();
        assertThat(SourceProgress.parse(new Report(2, State.STARTING, -1).key()))
                .isEqualTo(new Report(2, State.STARTING, -1));
        assertThat(List.of(minute(1))).noneMatch(SourceProgress::isProgress);
    }
}
