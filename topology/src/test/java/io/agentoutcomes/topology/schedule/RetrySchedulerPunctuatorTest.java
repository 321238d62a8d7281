package io.agentoutcomes.topology.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.RetryRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduler's processor alone, its wall-clock check called by hand: no topology, no driver. */
class RetrySchedulerPunctuatorTest {
    private static final long NOW = 1_772_366_400_000L;
    private static final Duration INTERVAL = Duration.ofMillis(20);

    private final MockProcessorContext<String, RetryRequest> context = new MockProcessorContext<>();
    private final KeyValueStore<Bytes, byte[]> store = Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(RetryScheduler.PENDING_STORE), Serdes.Bytes(), Serdes.ByteArray())
            .withLoggingDisabled().build();

    private RetryScheduler start(int maxPerCheck) {
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        context.setCurrentSystemTimeMs(NOW);
        RetryScheduler scheduler = new RetryScheduler(new SchedulerSettings(INTERVAL, maxPerCheck));
        scheduler.init(context);
        return scheduler;
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static RetryRequest retry(String resultId, long dueAt) {
        return RetryRequest.newBuilder().setTaskId("task-" + resultId).setResultId(resultId).setNextAttempt(1)
                .setErrorCode("llm-rate-limit").setDelayMs(dueAt - NOW).setDelayReason("test").setTier("long")
                .setFailedAt(NOW).setDueAt(dueAt).setReason("test").build();
    }

    private static Record<String, RetryRequest> record(RetryRequest retry) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("traceparent", ("00-trace-" + retry.getResultId()).getBytes(StandardCharsets.UTF_8));
        return new Record<>(retry.getTaskId(), retry, NOW, headers);
    }

    /** Runs the scheduler's wall-clock check at {@code now}; returns the result ids it forwarded. */
    private List<String> checkAt(long now) {
        context.resetForwards();
        context.setCurrentSystemTimeMs(now);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(now);
        return context.forwarded().stream().map(f -> f.record().value().getResultId()).toList();
    }

    @Test
    void itChecksTheWallClockAtTheConfiguredInterval() {
        start(10);

        assertThat(context.scheduledPunctuators()).singleElement().satisfies((CapturedPunctuator p) -> {
            assertThat(p.getType()).isEqualTo(PunctuationType.WALL_CLOCK_TIME);
            assertThat(p.getInterval()).isEqualTo(INTERVAL);
        });
    }

    @Test
    void aCheckForwardsTheDueRetriesOldestFirstWithTheirHeadersAndRemovesThem() {
        RetryScheduler scheduler = start(10);
        scheduler.process(record(retry("second", NOW + 2_000)));
        scheduler.process(record(retry("first", NOW + 1_000)));
        scheduler.process(record(retry("later", NOW + 60_000)));
        assertThat(context.forwarded()).as("nothing is due yet").isEmpty();

        assertThat(checkAt(NOW + 2_000)).containsExactly("first", "second");
        assertThat(context.forwarded().get(0).record().key()).isEqualTo("task-first");
        assertThat(context.forwarded().get(0).record().timestamp()).isEqualTo(NOW + 2_000);
        assertThat(new String(context.forwarded().get(0).record().headers().lastHeader("traceparent").value(),
                StandardCharsets.UTF_8)).isEqualTo("00-trace-first");
        assertThat(store.approximateNumEntries()).isEqualTo(1);
        assertThat(checkAt(NOW + 2_020)).as("forwarded once").isEmpty();
    }

    @Test
    void aRetryIsNeverForwardedBeforeItsDueTime() {
        RetryScheduler scheduler = start(10);
        scheduler.process(record(retry("r", NOW + 5_000)));

        assertThat(checkAt(NOW + 4_999)).isEmpty();
        assertThat(checkAt(NOW + 5_000)).containsExactly("r");
    }

    @Test
    void aRetryAlreadyDueIsForwardedAtOnceWithoutWaitingInTheStore() {
        RetryScheduler scheduler = start(10);
        scheduler.process(record(retry("due", NOW)));

        assertThat(context.forwarded()).extracting(f -> f.record().value().getResultId()).containsExactly("due");
        assertThat(store.approximateNumEntries()).isZero();
    }

    @Test
    void aCheckForwardsAtMostMaxPerCheckAndTheNextResumesWhereItStopped() {
        RetryScheduler scheduler = start(2);
        for (int i = 0; i < 5; i++) {
            scheduler.process(record(retry("r" + i, NOW + 1_000 + i)));
        }

        assertThat(checkAt(NOW + 1_000 + 4)).containsExactly("r0", "r1");
        assertThat(checkAt(NOW + 1_000 + 24)).containsExactly("r2", "r3");
        assertThat(checkAt(NOW + 1_000 + 44)).containsExactly("r4");
        assertThat(checkAt(NOW + 1_000 + 64)).isEmpty();
    }

    @Test
    void afterADowntimeANewSchedulerOnTheRestoredStoreForwardsEveryRetryDueMeanwhileInItsFirstCheck() {
        RetryScheduler before = start(SchedulerSettings.DEFAULT_MAX_PER_CHECK);
        for (int i = 0; i < 2_500; i++) {
            before.process(record(retry(String.format("r%04d", i), NOW + 1_000 + i)));
        }
        before.process(record(retry("later", NOW + 60_000)));
        assertThat(checkAt(NOW + 500)).as("nothing due before the kill").isEmpty();
        // the kill: 4 s without a check; the restart: a new processor on the store as restored (its cursor at zero)
        context.resetForwards();
        RetryScheduler after = new RetryScheduler(new SchedulerSettings(INTERVAL, SchedulerSettings.DEFAULT_MAX_PER_CHECK));
        after.init(context);

        List<String> first = checkAtLast(NOW + 4_500);

        assertThat(first).hasSize(2_500).doesNotContain("later").isSorted();
        assertThat(checkAtLast(NOW + 4_520)).as("forwarded once").isEmpty();
        assertThat(store.approximateNumEntries()).isEqualTo(1);
    }

    /** Runs the wall-clock check scheduled last (that of the newest processor) at {@code now}. */
    private List<String> checkAtLast(long now) {
        context.resetForwards();
        context.setCurrentSystemTimeMs(now);
        List<CapturedPunctuator> punctuators = context.scheduledPunctuators();
        punctuators.get(punctuators.size() - 1).getPunctuator().punctuate(now);
        return context.forwarded().stream().map(f -> f.record().value().getResultId()).toList();
    }
}
