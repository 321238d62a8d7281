package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.analytics.SourceProgress.Report;
import io.agentoutcomes.topology.analytics.SourceProgress.State;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pre-aggregator's flush, a wall-clock punctuation: every partial stamped with its own window's start (minutes,
 * then the hour and the running total made from them), then this task's progress for the merge step.
 */
class PreAggregatorTest {
    private static final Duration FLUSH_INTERVAL = Duration.ofSeconds(1);
    private static final Dimensions KEY = Dimensions.of("summarizer", "gpt-4o-mini", "openai", Dimensions.UNKNOWN);
    private static final long HOUR = Instant.parse("2026-03-01T10:00:00Z").toEpochMilli();
    private static final long MINUTE = 60_000;
    /** The wall clock when the task starts: after the records' times, as a producer's clock is. */
    private static final long STARTED_AT = HOUR + 5 * MINUTE;

    @TempDir
    Path stateDir;

    private MockProcessorContext<String, AgentMetrics> context;
    private PartialAggregatesStore partials;
    private PreAggregator preAggregator;

    @BeforeEach
    void setUp() {
        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "pre-aggregator-test");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        context = new MockProcessorContext<>(config, new TaskId(0, 3), stateDir.toFile());
        partials = PartialAggregatesStore.builder(PreAggregator.PARTIALS_STORE, AvroSerde.specific(AgentMetrics.class)
                .configured(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://pre-aggregator"), false))
                .withLoggingDisabled().build();
        partials.init(context.getStateStoreContext(), partials);
        context.addStateStore(partials);
        context.setCurrentSystemTimeMs(STARTED_AT);
        preAggregator = new PreAggregator(AnalyticsSettings.defaults());
        preAggregator.init(context);
    }

    @AfterEach
    void closeStore() {
        partials.close();
    }

    private static ClassifiedOutcome success(String id, long inputTokens) {
        AgentResult result = AgentResult.newBuilder().setResultId(id).setAgentId(KEY.value(Dimension.AGENT)).setTaskId("task-" + id)
                .setExecution(ExecutionMetadata.newBuilder().setModel(KEY.value(Dimension.MODEL)).setProvider(KEY.value(Dimension.PROVIDER))
                        .setUsage(Usage.newBuilder().setInputTokens(inputTokens).setOutputTokens(7L).build()).build())
                .setOutcome(Success.newBuilder().build()).build();
        return ClassifiedOutcome.newBuilder().setTaskId("task-" + id).setResultId(id).setAttempt(0)
                .setResultType(ResultType.SUCCESS).setReason("success").setRetryCount(0).setClassifiedAt(0L)
                .setAgentResult(result).build();
    }

    private void process(ClassifiedOutcome outcome, long timestamp) {
        preAggregator.process(new Record<>(outcome.getTaskId(), outcome, timestamp));
    }

    /** Runs the flush punctuation at wall-clock time {@code now}, with only what it forwards captured. */
    private void flush(long now) {
        context.resetForwards();
        context.setCurrentSystemTimeMs(now);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(now);
    }

    private static String key(WindowSize size, long start) {
        return new WindowKey(size, start, KEY).encode();
    }

    @Test
    void theFlushIsScheduledOnTheWallClockEveryFlushInterval() {
        assertThat(context.scheduledPunctuators()).extracting(CapturedPunctuator::getInterval, CapturedPunctuator::getType)
                .containsExactly(tuple(FLUSH_INTERVAL, PunctuationType.WALL_CLOCK_TIME));
    }

    @Test
    void aFlushForwardsEachMinuteThenTheHourAndTotalMadeFromThemEachAtItsWindowStartThenTheTaskIsBusyUpToItsLatest() {
        ClassifiedOutcome first = success("r-1", 100);
        ClassifiedOutcome second = success("r-2", 200);
        ClassifiedOutcome third = success("r-3", 300);
        process(first, HOUR + 5_000);
        process(second, HOUR + 50_000);
        process(third, HOUR + MINUTE + 1_000);

        flush(STARTED_AT + 1_000);

        AgentMetrics firstMinute = LivePartial.of(KEY).add(first).add(second).toMetrics();
        AgentMetrics secondMinute = LivePartial.of(KEY).add(third).toMetrics();
        AgentMetrics sum = MetricsAggregator.merge(LivePartial.of(KEY).add(first).add(second).toMetrics(),
                LivePartial.of(KEY).add(third).toMetrics());
        assertThat(context.forwarded()).extracting(f -> f.record().key(), f -> f.record().value(), f -> f.record().timestamp())
                .containsExactly(
                        tuple(key(WindowSize.ONE_MINUTE, HOUR), firstMinute, HOUR),
                        tuple(key(WindowSize.ONE_MINUTE, HOUR + MINUTE), secondMinute, HOUR + MINUTE),
                        tuple(key(WindowSize.ONE_HOUR, HOUR), sum, HOUR),
                        tuple(key(WindowSize.TOTAL, 0), sum, 0L),
                        tuple(new Report(3, State.BUSY, HOUR + MINUTE + 1_000).key(), null, HOUR + MINUTE + 1_000));
        assertThat(firstMinute.getInputTokens()).isEqualTo(300L);
        assertThat(sum.getInputTokens()).isEqualTo(600L);
    }

    @Test
    void aFlushAfterNothingNewForwardsOnlyTheProgressIdleAtTheLatestTimeAggregated() {
        process(success("r-1", 100), HOUR + 5_000);
        flush(STARTED_AT + 1_000);

        flush(STARTED_AT + 2_000);

        assertThat(context.forwarded()).extracting(f -> f.record().key(), f -> f.record().value(), f -> f.record().timestamp())
                .containsExactly(tuple(new Report(3, State.IDLE, HOUR + 5_000).key(), null, HOUR + 5_000));
    }

    @Test
    void aTaskThatHasAggregatedNothingIsStartingForItsFirstThirtySecondsThenIdle() {
        flush(STARTED_AT + 1_000);
        assertThat(context.forwarded()).extracting(f -> f.record().key(), f -> f.record().value(), f -> f.record().timestamp())
                .containsExactly(tuple(new Report(3, State.STARTING, -1).key(), null, 0L));

        flush(STARTED_AT + SourceProgress.STARTING_FOR_MS);
        assertThat(context.forwarded()).extracting(f -> f.record().key(), f -> f.record().value(), f -> f.record().timestamp())
                .containsExactly(tuple(new Report(3, State.IDLE, -1).key(), null, 0L));
    }

    @Test
    void aRecordStampedAheadOfTheWallClockIsAggregatedInItsWindowButTheTaskIsBusyOnlyUpToTheWallClock() {
        ClassifiedOutcome ahead = success("r-ahead", 100);
        context.setCurrentSystemTimeMs(STARTED_AT + 500);
        process(ahead, STARTED_AT + 4 * MINUTE);

        flush(STARTED_AT + 1_000);

        long minute = STARTED_AT + 4 * MINUTE;
        assertThat(context.forwarded()).extracting(f -> f.record().key(), f -> f.record().timestamp())
                .containsExactly(
                        tuple(key(WindowSize.ONE_MINUTE, minute), minute),
                        tuple(key(WindowSize.ONE_HOUR, HOUR), HOUR),
                        tuple(key(WindowSize.TOTAL, 0), 0L),
                        tuple(new Report(3, State.BUSY, STARTED_AT + 500).key(), STARTED_AT + 500));
    }
}
