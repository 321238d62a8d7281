package io.agentoutcomes.topology.schedule;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.classify.RetryTiers;
import io.agentoutcomes.topology.topic.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retry scheduler alone: retries in on a delay topic, out on retry-ready by the wall clock. */
class RetrySchedulerTest {
    private static final Duration INTERVAL = Duration.ofMillis(20);

    private StageDriver scheduler;
    private TestInputTopic<String, RetryRequest> delayed;
    private TestOutputTopic<String, RetryRequest> ready;

    private void start(int maxPerCheck) {
        scheduler = StageDriver.stage((builder, topics) -> RetrySchedulerTopology.build(builder, topics,
                new SchedulerSettings(INTERVAL, maxPerCheck)).to(topics.retryReady.name(), topics.retryReady.produced()));
        delayed = scheduler.input(scheduler.topics.retryDelay.get("long").name(), scheduler.topics.retryReady);
        ready = scheduler.output(scheduler.topics.retryReady);
    }

    @AfterEach
    void close() {
        if (scheduler != null) {
            scheduler.close();
        }
    }

    private static RetryRequest retry(String resultId, Instant dueAt) {
        return RetryRequest.newBuilder().setTaskId("task-" + resultId).setResultId(resultId).setNextAttempt(1)
                .setErrorCode("llm-rate-limit").setDelayMs(dueAt.toEpochMilli() - T0.toEpochMilli())
                .setDelayReason("test").setTier("long").setFailedAt(T0.toEpochMilli()).setDueAt(dueAt.toEpochMilli()).setReason("test").build();
    }

    @Test
    void aRetryDueInAFourteenDigitMillisecondYearIsNotForwardedEarly() {
        start(SchedulerSettings.DEFAULT_MAX_PER_CHECK);
        Instant farFuture = Instant.ofEpochMilli(10_700_000_000_000L);
        delayed.pipeInput("task-far", retry("far", farFuture), T0);
        delayed.pipeInput("task-soon", retry("soon", T0.plusSeconds(1)), T0);

        scheduler.advance(Duration.ofMinutes(10));

        assertThat(ready.readValuesToList()).extracting(RetryRequest::getResultId).containsExactly("soon");
    }

    @Test
    void storeKeysSortByDueTimeWhateverItsNumberOfDigits() {
        long[] dueTimes = {0, 9, 999, 1_000, 1_772_366_400_000L, 9_999_999_999_999L, 10_700_000_000_000L, Long.MAX_VALUE};
        for (int i = 1; i < dueTimes.length; i++) {
            assertThat(PendingRetryKey.of(retry("b", Instant.ofEpochMilli(dueTimes[i - 1]))))
                    .as("%d before %d", dueTimes[i - 1], dueTimes[i])
                    .isLessThan(PendingRetryKey.of(retry("a", Instant.ofEpochMilli(dueTimes[i]))));
        }
    }

    @Test
    void aBurstDueAtOnceIsForwardedAtMostMaxPerCheckAtATimeOldestFirst() {
        start(10);
        for (int i = 0; i < 25; i++) {
            delayed.pipeInput("task-" + i, retry(String.format("r%02d", i), T0.plusSeconds(5).plusMillis(i % 3)), T0);
        }
        scheduler.advance(Duration.ofSeconds(5).plus(Duration.ofMillis(2)));
        List<RetryRequest> first = ready.readValuesToList();
        scheduler.advance(INTERVAL);
        List<RetryRequest> second = ready.readValuesToList();
        scheduler.advance(INTERVAL);
        List<RetryRequest> third = ready.readValuesToList();
        scheduler.advance(Duration.ofMinutes(1));

        assertThat(first).hasSize(10);
        assertThat(second).hasSize(10);
        assertThat(third).hasSize(5);
        assertThat(ready.isEmpty()).isTrue();
        List<Long> order = new ArrayList<>();
        for (List<RetryRequest> batch : List.of(first, second, third)) {
            batch.forEach(r -> order.add(r.getDueAt()));
        }
        assertThat(order).isSorted();
        assertThat(order.stream().distinct()).hasSize(3);
    }

    @Test
    void retriesAddedAfterACheckStoppedAtItsLimitAreStillForwardedWhenDue() {
        start(2);
        for (int i = 0; i < 5; i++) {
            delayed.pipeInput("task-" + i, retry("early-" + i, T0.plusSeconds(1)), T0);
        }
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(ready.readValuesToList()).hasSize(2);
        delayed.pipeInput("task-late", retry("late", T0.plusSeconds(10)), T0.plusSeconds(1));
        scheduler.advance(INTERVAL);
        assertThat(ready.readValuesToList()).extracting(RetryRequest::getResultId).hasSize(2).doesNotContain("late");
        scheduler.advance(INTERVAL);
        assertThat(ready.readValuesToList()).extracting(RetryRequest::getResultId).hasSize(1).doesNotContain("late");
        scheduler.advance(Duration.ofSeconds(8));
        assertThat(ready.isEmpty()).as("not before its due time").isTrue();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(ready.readValuesToList()).extracting(RetryRequest::getResultId).containsExactly("late");
    }

    @Test
    void aRetryOnTheDelayTopicOfATierTheSettingsNoLongerMakeIsForwardedWhenDue() {
        start(SchedulerSettings.DEFAULT_MAX_PER_CHECK);
        // retry.tiers=1s,2s,5s,8s makes a tier 8s; the default tiers of this driver do not.
        assertThat(scheduler.topics.retryDelay).doesNotContainKey("8s");
        TestInputTopic<String, RetryRequest> retired = scheduler.input(TopicNames.retryDelay("8s"), scheduler.topics.retryReady);
        TestInputTopic<String, RetryRequest> custom = scheduler.input(TopicNames.retryDelay("90m"), scheduler.topics.retryReady);
        retired.pipeInput("task-8s", retry("8s", T0.plusSeconds(8)), T0);
        custom.pipeInput("task-90m", retry("90m", T0.plusSeconds(9)), T0);

        scheduler.advance(Duration.ofSeconds(7));
        assertThat(ready.isEmpty()).as("not before its due time").isTrue();
        scheduler.advance(Duration.ofSeconds(3));

        assertThat(ready.readValuesToList()).extracting(RetryRequest::getResultId).containsExactly("8s", "90m");
    }

    @Test
    void theSchedulerReadsEveryDelayTopicOfItsPrefixAndNoOtherTopic() {
        Pattern family = new Topics("prod.", Map.of("schema.registry.url", "mock://family"),
                RetryTiers.defaults().names()).retryDelayFamily;

        assertThat(List.of("prod.retry-delay-1s", "prod.retry-delay-8s", "prod.retry-delay-500ms", "prod.retry-delay-1h",
                "prod.retry-delay-long")).allMatch(topic -> family.matcher(topic).matches());
        assertThat(List.of("retry-delay-8s", "other.retry-delay-8s", "prod.retry-delay-", "prod.retry-ready",
                "prod.retry-delay-8s-changelog", "prodXretry-delay-8s", "prod.app-retry-pending-changelog"))
                .noneMatch(topic -> family.matcher(topic).matches());
    }
}
