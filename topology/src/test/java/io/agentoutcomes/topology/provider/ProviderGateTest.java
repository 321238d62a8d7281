package io.agentoutcomes.topology.provider;

import static io.agentoutcomes.topology.StageDriver.T0;
import static io.agentoutcomes.topology.provider.GateInputs.failure;
import static io.agentoutcomes.topology.provider.GateInputs.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The provider gate in the whole pipeline, on a TopologyTestDriver whose wall clock the test moves. */
class ProviderGateTest {
    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> results;
    private TestOutputTopic<String, RetryRequest> ready;
    private TestOutputTopic<String, ProviderHealth> health;
    /** Every retry released, in order, with the wall-clock time it was released at. */
    private final List<TestRecord<String, RetryRequest>> released = new ArrayList<>();

    private void start(ProviderGateSettings settings) {
        pipeline = StageDriver.of(topics -> AgentOutcomesTopology.build(topics, PipelineSettings.builder().providers(settings).build(),
                new Properties()));
        results = pipeline.input(pipeline.topics.agentResults);
        ready = pipeline.output(pipeline.topics.retryReady);
        health = pipeline.output(pipeline.topics.providerHealth);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    /** Moves the wall clock one gate check (100 ms) at a time, as it passes for the gate, collecting what is released. */
    private void run(Duration span) {
        Duration check = ProviderGateSettings.defaults().checkInterval();
        for (long step = 0; step < span.dividedBy(check); step++) {
            pipeline.advance(check);
            released.addAll(ready.readRecordsToList());
        }
    }

    /** A provider's budget as OpenAI's headers give it: 100 requests (a minute), none left, resets in 20 s. */
    private static RateLimitState hundredAMinuteExhausted() {
        return RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow.newBuilder().setName("requests")
                .setResource("requests").setLimit(100L).setRemaining(0L).setResetsInMs(20_000L)
                .setResetAtMs(T0.toEpochMilli() + 20_000).setHeader("x-ratelimit-remaining-requests: 0").build())).build();
    }

    private List<TestRecord<String, RetryRequest>> of(String provider) {
        return released.stream().filter(r -> r.value().getAgentResult().getExecution().getProvider().equals(provider)).toList();
    }

    @Test
    void aThousandTasksRateLimitedAtOneHundredAMinuteAreReleasedAtMostOneHundredAMinuteWhileAnotherProviderFlows() {
        start(ProviderGateSettings.defaults());
        for (int i = 0; i < 1_000; i++) {
            results.pipeInput("acme-" + i, result("acme", "m1", "acme-" + i, failure("llm-rate-limit"), hundredAMinuteExhausted()), T0);
        }
        for (int i = 0; i < 10; i++) {
            results.pipeInput("other-" + i, result("other", "m2", "other-" + i, failure("llm-timeout"), null), T0);
        }

        run(Duration.ofMinutes(11));

        List<TestRecord<String, RetryRequest>> acme = of("acme");
        List<TestRecord<String, RetryRequest>> other = of("other");
        assertThat(other).hasSize(10).allSatisfy(r -> assertThat(r.timestamp()).isBetween(r.value().getDueAt(),
                r.value().getDueAt() + 1_000));
        assertThat(acme).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates().hasSize(1_000);
        assertThat(acme).allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(r.value().getDueAt()));
        // at most 100 in any minute, the first of them no earlier than the reset
        for (TestRecord<String, RetryRequest> first : acme) {
            long inTheMinute = acme.stream().filter(r -> r.timestamp() >= first.timestamp()
                    && r.timestamp() < first.timestamp() + 60_000).count();
            assertThat(inTheMinute).as("released in the minute from %d", first.timestamp()).isLessThanOrEqualTo(100);
        }
        assertThat(acme.get(0).timestamp()).isGreaterThanOrEqualTo(T0.toEpochMilli() + 20_000);
        // and paced, not starved: 99 per 60.1 s (the limit less the burst a window starting at a release holds, over
        // the minute and a check), used, so the last leaves 1 000 / 98.8 minutes (607 s) after the reset
        assertThat(acme.get(999).timestamp() - T0.toEpochMilli()).isBetween(620_000L, 632_000L);
        assertThat(health.readValuesToList()).isEmpty();
    }

    @Test
    void aBudgetIdleForMinutesReleasesNoBurstAfterwardsAtMostTheLimitInAnyMinute() {
        start(ProviderGateSettings.defaults());
        for (int i = 0; i < 50; i++) {
            results.pipeInput("acme-" + i, result("acme", "m1", "acme-" + i, failure("llm-rate-limit"), hundredAMinuteExhausted()), T0);
        }
        run(Duration.ofMinutes(10));
        assertThat(of("acme")).hasSize(50);
        released.clear();
        // ten minutes idle: a bucket refilled to the limit would now let 100 go at once, and 99 more within the minute
        // (rate limits that say nothing new of the budget, and are no circuit's failures)
        for (int i = 0; i < 150; i++) {
            results.pipeInput("later-" + i, result("acme", "m1", "later-" + i, failure("llm-rate-limit"), null),
                    T0.plus(Duration.ofMinutes(10)));
        }
        run(Duration.ofMinutes(3));

        List<TestRecord<String, RetryRequest>> later = of("acme");
        assertThat(later).hasSize(150);
        for (TestRecord<String, RetryRequest> first : later) {
            assertThat(later.stream().filter(r -> r.timestamp() >= first.timestamp() && r.timestamp() < first.timestamp() + 60_000)
                    .count()).as("released in the minute from %d", first.timestamp()).isLessThanOrEqualTo(100);
        }
    }

    @Test
    void aProviderFailingForThirtySecondsOpensItsCircuitHoldsItsRetriesReleasesProbesAndClosesOnRecovery() {
        start(ProviderGateSettings.defaults());
        for (int i = 0; i < 40; i++) {
            results.pipeInput("flaky-" + i, result("flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null), T0);
        }
        for (int i = 0; i < 5; i++) {
            results.pipeInput("steady-" + i, result("steady", "m1", "steady-" + i, failure("llm-timeout"), null), T0);
        }
        run(Duration.ofSeconds(35));
        List<TestRecord<String, RetryRequest>> probes = of("flaky");
        for (int i = 0; i < 5; i++) {
            results.pipeInput("flaky-ok-" + i, result("flaky", "m1", "flaky-ok-" + i, Success.newBuilder().build(), null), T0.plusSeconds(35));
        }
        run(Duration.ofSeconds(5));

        List<ProviderHealth> changes = health.readValuesToList();
        assertThat(changes).extracting(ProviderHealth::getState)
                .containsExactly(CircuitState.OPEN, CircuitState.HALF_OPEN, CircuitState.CLOSED);
        ProviderHealth opened = changes.get(0);
        assertThat(opened.getProvider()).isEqualTo("flaky");
        assertThat(opened.getModel()).isEqualTo("m1");
        assertThat(opened.getOutcomes()).isEqualTo(40);
        assertThat(opened.getFailures()).isEqualTo(40);
        assertThat(opened.getAt()).isEqualTo(T0.toEpochMilli() + 1_000);
        assertThat(changes.get(1).getAt()).isEqualTo(opened.getAt() + 30_000);
        assertThat(changes.get(1).getHeldRetries()).isEqualTo(40);
        assertThat(changes.get(2).getReason()).isEqualTo("5 successes and 0 failures since half-open");
        // held while open: the five probes at half-open, the rest once closed; each once, none before due
        assertThat(probes).hasSize(5).allSatisfy(r -> assertThat(r.timestamp()).isEqualTo(changes.get(1).getAt()));
        List<TestRecord<String, RetryRequest>> flaky = of("flaky");
        assertThat(flaky).hasSize(40).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates();
        assertThat(flaky.subList(5, 40)).allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(changes.get(2).getAt()));
        assertThat(flaky).allSatisfy(r -> assertThat(r.timestamp()).isGreaterThanOrEqualTo(r.value().getDueAt()));
        // another provider's retries flowed while the circuit was open
        assertThat(of("steady")).hasSize(5).allSatisfy(r -> assertThat(r.timestamp()).isLessThan(changes.get(1).getAt()));
    }

    /** OpenAI's headers on a 429: 6 000 requests a minute, none left, the window resetting in {@code resetsInMs}. */
    private static RateLimitState sixThousandAMinuteExhausted(long resetsInMs) {
        return RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow.newBuilder().setName("requests")
                .setResource("requests").setLimit(6_000L).setRemaining(0L).setResetsInMs(resetsInMs)
                .setHeader("x-ratelimit-remaining-requests: 0").build())).build();
    }

    /**
     * Issue 29 item 4: the results agents got while the service was down are classified after the restart. A provider's
     * "none left, resets in 5 s" among them holds its scope until the reset the provider said (the record's time plus
     * 5 s, long past), not 5 s from the restart's catch-up: that added the downtime to every retry of the scope due then.
     */
    @Test
    void aWindowExhaustedWhileTheServiceWasDownHoldsTheScopeOnlyUntilTheResetTheProviderSaid() {
        start(ProviderGateSettings.defaults());
        // before the crash: 50 failures whose retries (the provider's retry_after, 16.5 s) come due after the restart
        RateLimitState retryAfter = RateLimitState.newBuilder().setLimited(true).setRetryAfterMs(16_500L).build();
        for (int i = 0; i < 50; i++) {
            results.pipeInput("due-" + i, result("acme", "m1", "due-" + i, failure("llm-rate-limit"), retryAfter), T0);
        }
        // down for 15 s; then the catch-up reads 20 failures the agents got at 2-9.6 s, each "none left, resets in 5 s"
        pipeline.advance(Duration.ofSeconds(15));
        for (int i = 0; i < 20; i++) {
            results.pipeInput("caught-up-" + i, result("acme", "m1", "caught-up-" + i, failure("llm-rate-limit"),
                    sixThousandAMinuteExhausted(5_000)), T0.plusMillis(2_000 + i * 400L));
        }
        run(Duration.ofSeconds(10));

        List<TestRecord<String, RetryRequest>> due = of("acme").stream().filter(r -> r.value().getTaskId().startsWith("due-")).toList();
        assertThat(due).hasSize(50).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates();
        // every window the provider said was exhausted had reset by T0 + 14.6 s: out within a second of due (16.5 s),
        // at the 6 000 a minute's pace (10 a check)
        assertThat(due).extracting(r -> r.timestamp() - r.value().getDueAt()).as("ms from due to released")
                .allSatisfy(late -> assertThat(late).isBetween(0L, 1_000L));
    }

    @Test
    void withTheGateOffRetriesGoStraightToRetryReady() {
        start(ProviderGateSettings.defaults().withEnabled(false));
        for (int i = 0; i < 40; i++) {
            results.pipeInput("flaky-" + i, result("flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null), T0);
        }
        run(Duration.ofSeconds(15));

        assertThat(of("flaky")).hasSize(40);
        assertThat(health.readValuesToList()).isEmpty();
    }
}
