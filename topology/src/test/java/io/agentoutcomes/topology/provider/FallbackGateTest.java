package io.agentoutcomes.topology.provider;

import static io.agentoutcomes.topology.StageDriver.T0;
import static io.agentoutcomes.topology.provider.GateInputs.failure;
import static io.agentoutcomes.topology.provider.GateInputs.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.CircuitState;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.FallbackCause;
import io.agentoutcomes.avro.FallbackCount;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.ProviderState;
import io.agentoutcomes.avro.RateLimitState;
import io.agentoutcomes.avro.RateLimitWindow;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Fallback models (issue 33 item 2) in the whole pipeline, on a TopologyTestDriver whose wall clock the test moves. */
class FallbackGateTest {
    private static final Chain FLAKY_TO_BACKUP = new Chain(Kind.GENERAL, new Model("flaky", "m1"), List.of(new Model("backup", "m2")));
    private static final Chain MINI_TO_LARGE = new Chain(Kind.CONTEXT, new Model("openai", "gpt-4o-mini"),
            List.of(new Model("openai", "gpt-4.1")));

    private StageDriver pipeline;
    private TestInputTopic<String, AgentResult> results;
    private TestOutputTopic<String, RetryRequest> ready;
    private TestOutputTopic<String, ProviderHealth> health;
    private TestOutputTopic<String, ClassifiedOutcome> outcomes;
    private TestOutputTopic<String, ClassifiedOutcome> deadLetters;
    private final List<TestRecord<String, RetryRequest>> released = new ArrayList<>();

    private void start(Chain... chains) {
        RetryPolicy policy = RetryPolicy.defaults().withFallbacks(new FallbackChains(List.of(chains)));
        pipeline = StageDriver.of(topics -> AgentOutcomesTopology.build(topics, PipelineSettings.builder().retry(policy).build(),
                new Properties()));
        results = pipeline.input(pipeline.topics.agentResults);
        ready = pipeline.output(pipeline.topics.retryReady);
        health = pipeline.output(pipeline.topics.providerHealth);
        outcomes = pipeline.output(pipeline.topics.outcomesClassified);
        deadLetters = pipeline.output(pipeline.topics.deadLetter);
    }

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void run(Duration span) {
        Duration check = ProviderGateSettings.defaults().checkInterval();
        for (long step = 0; step < span.dividedBy(check); step++) {
            pipeline.advance(check);
            released.addAll(ready.readRecordsToList());
        }
    }

    /** What the gate counted of the retries moved to a scope as their fallback ({@code fallbacksReceived}). */
    private List<FallbackCount> received(String provider, String model) {
        return pipeline.<String, ProviderState>entries(ProviderGateStores.STATE_STORE).stream().map(entry -> entry.value)
                .filter(state -> state.getProvider().equals(provider) && Objects.equals(state.getModel(), model))
                .flatMap(state -> state.getFallbacksReceived().stream()).toList();
    }

    /** Every count of retries moved to a fallback, of every scope. */
    private List<FallbackCount> allReceived() {
        return pipeline.<String, ProviderState>entries(ProviderGateStores.STATE_STORE).stream()
                .flatMap(entry -> entry.value.getFallbacksReceived().stream()).toList();
    }

    /** The fallback's own budget, as a success of it advertised: 10 requests a minute, all left. */
    private static RateLimitState tenAMinute() {
        return RateLimitState.newBuilder().setLimited(false).setWindows(List.of(RateLimitWindow.newBuilder().setName("requests")
                .setResource("requests").setLimit(10L).setRemaining(10L).build())).build();
    }

    /** Forty failures that open flaky/m1's circuit at T0 + 1 s; their retries fall due at T0 + 10 s (llm-unavailable). */
    private void openFlakysCircuit() {
        results.pipeInput("backup-ok", result("backup", "m2", "backup-ok", Success.newBuilder().build(), tenAMinute()), T0);
        for (int i = 0; i < 40; i++) {
            results.pipeInput("flaky-" + i, result("flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null), T0);
        }
    }

    @Test
    void aCircuitOpenOnOneModelSendsDueRetriesOfItsChainToTheFallbackAtOnceUnderTheFallbacksOwnPacing() {
        start(FLAKY_TO_BACKUP);
        openFlakysCircuit();

        run(Duration.ofMinutes(6));

        List<ProviderHealth> changes = health.readValuesToList();
        assertThat(changes.get(0).getState()).isEqualTo(CircuitState.OPEN);
        assertThat(changes.get(0).getAt()).isEqualTo(T0.toEpochMilli() + 1_000);
        assertThat(released).hasSize(40).extracting(r -> r.value().getTaskId()).doesNotHaveDuplicates();
        assertThat(released).allSatisfy(r -> {
            RetryRequest retry = r.value();
            assertThat(r.timestamp()).isGreaterThanOrEqualTo(retry.getDueAt());
            assertThat(retry.getDueAt()).isEqualTo(T0.toEpochMilli() + 10_000);
            assertThat(retry.getFallbackProvider()).isEqualTo("backup");
            assertThat(retry.getFallbackModel()).isEqualTo("m2");
            assertThat(retry.getFallbackCause()).isEqualTo(FallbackCause.CIRCUIT_OPEN);
            assertThat(retry.getFallbackReason()).isEqualTo("circuit open on flaky/m1: re-run on backup/m2 (fallback.flaky/m1=backup/m2)");
            assertThat(retry.getAction()).isEqualTo(RetryAction.WAIT);
        });
        // the first at once, when due, though flaky/m1's circuit stays open 30 s more
        assertThat(released.get(0).timestamp()).isEqualTo(T0.toEpochMilli() + 10_000);
        // then no faster than backup/m2's own budget: at most 10 in any minute
        for (TestRecord<String, RetryRequest> first : released) {
            assertThat(released.stream().filter(r -> r.timestamp() >= first.timestamp() && r.timestamp() < first.timestamp() + 60_000)
                    .count()).as("released in the minute from %d", first.timestamp()).isLessThanOrEqualTo(10);
        }
        assertThat(released.get(39).timestamp()).isGreaterThan(T0.toEpochMilli() + 4 * 60_000);
        // each move counted once, on the scope moved to, by the scope moved away from and why
        assertThat(received("backup", "m2")).containsExactly(new FallbackCount("flaky", "m1", FallbackCause.CIRCUIT_OPEN, 40L));
        assertThat(allReceived()).hasSize(1);
    }

    @Test
    void withoutAChainTheOpenCircuitHoldsTheRetriesAsBefore() {
        start();
        openFlakysCircuit();

        run(Duration.ofSeconds(30));

        assertThat(released).isEmpty();
        run(Duration.ofSeconds(2));
        // the half-open probes at T0 + 31 s, on flaky/m1 itself
        assertThat(released).hasSize(5).allSatisfy(r -> {
            assertThat(r.timestamp()).isEqualTo(T0.toEpochMilli() + 31_000);
            assertThat(r.value().getFallbackProvider()).isNull();
            assertThat(r.value().getFallbackCause()).isNull();
        });
        assertThat(allReceived()).isEmpty();
    }

    @Test
    void retriesHeldWhileTheFallbackWasSickTooGoToItWhenItCanServe() {
        start(FLAKY_TO_BACKUP);
        // backup/m2's circuit opens at T0 + 1 s and half-opens at T0 + 31 s (its own failures are final: attempt 4 of 5)
        for (int i = 0; i < 40; i++) {
            AgentResult last = result("backup", "m2", "backup-" + i, failure("llm-unavailable"), null);
            last.setAttempt(4);
            results.pipeInput("backup-" + i, last, T0);
        }
        run(Duration.ofSeconds(5));
        // flaky/m1's opens at T0 + 6 s; its retries fall due at T0 + 15 s, with both circuits open: held where they are
        for (int i = 0; i < 40; i++) {
            results.pipeInput("flaky-" + i, result("flaky", "m1", "flaky-" + i, failure("llm-unavailable"), null), T0.plusSeconds(5));
        }
        run(Duration.ofSeconds(25));
        assertThat(released).isEmpty();

        run(Duration.ofSeconds(2));

        // backup/m2 half-open at T0 + 31 s, flaky/m1 still open: the held retries move there at the next check, oldest
        // first (due time, then the task id's length and the task id), and its five probes go at once
        assertThat(released).hasSize(5).allSatisfy(r -> {
            assertThat(r.timestamp()).isEqualTo(T0.toEpochMilli() + 31_100);
            assertThat(r.timestamp()).isGreaterThanOrEqualTo(r.value().getDueAt());
            assertThat(r.value().getFallbackModel()).isEqualTo("m2");
            assertThat(r.value().getFallbackCause()).isEqualTo(FallbackCause.CIRCUIT_OPEN);
        });
        assertThat(released).extracting(r -> r.value().getTaskId()).containsExactly("flaky-0", "flaky-1", "flaky-2", "flaky-3",
                "flaky-4");
        // the rest wait in backup/m2's scope, not flaky/m1's: flaky/m1 half-opening at T0 + 36 s releases nothing of them
        run(Duration.ofSeconds(10));
        assertThat(released).hasSize(5);
        // all 40 moved at that check (5 released, 35 held by backup/m2), each counted once
        assertThat(received("backup", "m2")).containsExactly(new FallbackCount("flaky", "m1", FallbackCause.CIRCUIT_OPEN, 40L));
        assertThat(received("flaky", "m1")).isEmpty();
    }

    @Test
    void aDailyLimitWithAChainSwitchesToTheFallbackModelAtOnce() {
        start(FLAKY_TO_BACKUP);
        RateLimitState daily = RateLimitState.newBuilder().setLimited(true).setWindows(List.of(RateLimitWindow.newBuilder()
                .setName("requests_per_day").setRemaining(0L).setResetsInMs(3_600_000L).build())).build();
        results.pipeInput("flaky-0", result("flaky", "m1", "flaky-0", failure("llm-rate-limit"), daily), T0);

        run(Duration.ofSeconds(1));

        assertThat(released).singleElement().satisfies(r -> {
            assertThat(r.value().getAction()).isEqualTo(RetryAction.SWITCH_PROVIDER);
            assertThat(r.value().getFallbackProvider()).isEqualTo("backup");
            assertThat(r.value().getFallbackModel()).isEqualTo("m2");
            assertThat(r.value().getFallbackCause()).isEqualTo(FallbackCause.DAILY_LIMIT);
            assertThat(r.timestamp()).isEqualTo(r.value().getDueAt());
        });
        assertThat(received("backup", "m2")).containsExactly(new FallbackCount("flaky", "m1", FallbackCause.DAILY_LIMIT, 1L));
        assertThat(allReceived()).hasSize(1);
    }

    @Test
    void aTokenLimitFailureWithAContextChainIsRetriedOnTheLargerModelAtOnce() {
        start(MINI_TO_LARGE);
        results.pipeInput("t", result("openai", "gpt-4o-mini", "t", failure("context_length"), null), T0);

        run(Duration.ofSeconds(1));

        ClassifiedOutcome outcome = outcomes.readValue();
        assertThat(outcome.getResultType()).isEqualTo(ResultType.RETRYABLE_FAILURE);
        assertThat(outcome.getErrorCode()).isEqualTo("llm-token-limit");
        assertThat(outcome.getDecision().getHandling()).isEqualTo(ErrorHandling.RETRY);
        assertThat(outcome.getDecision().getRule()).isEqualTo("fallback.context.openai/gpt-4o-mini=openai/gpt-4.1");
        assertThat(outcome.getDecision().getReason()).isEqualTo("Model error, retrying (1/5) on openai/gpt-4.1");
        assertThat(outcome.getRetryDelayMs()).isZero();
        assertThat(outcome.getRetryDelayReason()).isEqualTo("context window of openai/gpt-4o-mini exceeded: re-run now on "
                + "openai/gpt-4.1 (fallback.context.openai/gpt-4o-mini=openai/gpt-4.1)");
        assertThat(released).singleElement().satisfies(r -> {
            assertThat(r.value().getNextAttempt()).isEqualTo(1);
            assertThat(r.value().getFallbackProvider()).isEqualTo("openai");
            assertThat(r.value().getFallbackModel()).isEqualTo("gpt-4.1");
            assertThat(r.value().getFallbackCause()).isEqualTo(FallbackCause.CONTEXT_WINDOW);
            assertThat(r.value().getDueAt()).isEqualTo(T0.toEpochMilli());
            assertThat(r.timestamp()).isEqualTo(T0.toEpochMilli());
        });
        assertThat(deadLetters.isEmpty()).isTrue();
        // moved by classification, counted when it reaches the larger model's gate
        assertThat(received("openai", "gpt-4.1")).containsExactly(new FallbackCount("openai", "gpt-4o-mini",
                FallbackCause.CONTEXT_WINDOW, 1L));
        assertThat(allReceived()).hasSize(1);
    }

    @Test
    void aTokenLimitFailureWithoutAContextChainStaysAStop() {
        start(FLAKY_TO_BACKUP);
        results.pipeInput("t", result("openai", "gpt-4o-mini", "t", failure("context_length"), null), T0);

        run(Duration.ofSeconds(1));

        ClassifiedOutcome stopped = deadLetters.readValue();
        assertThat(stopped.getResultType()).isEqualTo(ResultType.PERMANENT_FAILURE);
        assertThat(stopped.getDecision().getHandling()).isEqualTo(ErrorHandling.STOP);
        assertThat(stopped.getDecision().getStopReason()).isEqualTo(StopReason.ERROR);
        assertThat(stopped.getDecision().getRule()).isEqualTo("default policy, code llm-token-limit");
        assertThat(released).isEmpty();
    }
}
