package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.RetryRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 29 item 4 at the service's defaults: the default backoff (a rate-limited failure retried 5 s later), the
 * default tiers and the provider gate's pacing, not the suite's short backoff. Three SIGKILLs back to back under the
 * mixed load (the second and third 1-3 s after the service was ready again), and around each kill 200 rate-limited
 * failures sent 1 s before it, whose retries come due while the service is down, and, 0.2 s after it, 50 failures of
 * one of their provider and model saying its request window (30 000 a minute) is exhausted and resets in 8 s: said
 * while the service was down, read in the restart's catch-up. Every retry due while down visible on retry-ready
 * ({@code read_committed}) within {@link #RETRIES_WITHIN} of the service being ready again, counted as time ready, and
 * none forwarded before its due time. The gate's input is read too, to say which hop a late retry waited in.
 * <p>
 * Retries the retry budget held (issue 33: the bursts are over it at its defaults) count apart, as in
 * {@link CrashRecoveryIT}, when {@code /providers} said so. On a quiet machine it passed twice (the rest at most 4.1
 * and 5.8 s overdue while ready); on the shared machine under a load average of 10-26 the restarts' own throughput
 * made it fail (docs/operations.md, Retries after a crash). It takes about 93 s, so it stays out of {@code .ci/run}
 * for time: run it with {@code -Dfault.open=true}.
 */
@EnabledIfSystemProperty(named = "fault.open", matches = "true",
        disabledReason = "the default-backoff variant of CrashRecoveryIT's retry check, 93 s: run with -Dfault.open=true")
class RetriesAfterCrashesIT {
    private static final int KILLS = 3;
    private static final int RETRY_BURST = 200;
    private static final int EXHAUSTED = 50;
    /** The provider's reset, said 0.2 s after the kill: past 8.2 s after it, at most about 2 s after ready again. */
    private static final Duration RESETS_IN = Duration.ofSeconds(8);
    private static final Duration RETRIES_WITHIN = Duration.ofSeconds(6);
    private static final Duration AFTER_READY = Duration.ofSeconds(10);

    @Test
    void retriesDueWhileDownComeOutSoonAfterEachRestartAtTheDefaultsWhateverTheProviderSaidMeanwhile() throws Exception {
        Scenarios.run("RetriesAfterCrashesIT: retries due while down, the service at its default backoff, SIGKILLed "
                + KILLS + " times back to back", "retries-after-crashes", (dir, random, figures, softly) -> {
            Map<String, String> settings = Scenarios.defaults(1);
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", settings)) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), PipelineChecks.OUTPUT_TOPICS);
                     TopicWatcher gateInput = new TopicWatcher(kafka.bootstrapServers(), List.of(RetryLateness.GATE_INPUT));
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers());
                     RetryBudgetSampler budget = new RetryBudgetSampler(app)) {
                    MixedLoad load = new MixedLoad("late", app.registryUrl());
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    producer.startSteady(load, 25, Duration.ofMillis(250));
                    long[] killedAt = new long[KILLS];
                    long[] healthyAt = new long[KILLS];
                    for (int kill = 0; kill < KILLS; kill++) {
                        Thread.sleep(kill == 0 ? 5_000 + random.nextInt(4_000) : random.nextInt(2_000));
                        producer.send(load.rateLimitedFailures(RETRY_BURST));
                        Thread.sleep(1_000);
                        killedAt[kill] = System.currentTimeMillis();
                        app.kill();
                        Thread.sleep(200);
                        producer.send(load.exhaustedWindowFailures(EXHAUSTED, System.currentTimeMillis(), RESETS_IN.toMillis()));
                        Thread.sleep(800 + random.nextInt(1_000));
                        app.start(dir.resolve("app.log"));
                        Duration ready = app.awaitHealthy(Duration.ofSeconds(120));
                        healthyAt[kill] = System.currentTimeMillis();
                        figures.put("SIGKILL " + (kill + 1) + ": down / from the restart to /health 200",
                                (healthyAt[kill] - killedAt[kill] - ready.toMillis()) + " / " + ready.toMillis() + " ms");
                    }
                    producer.stop();
                    awaitEveryRetry(checks, load.tally().retried, Duration.ofSeconds(90));
                    List<RetryLateness.Outage> outages = IntStream.range(0, KILLS)
                            .mapToObj(k -> new RetryLateness.Outage(killedAt[k], healthyAt[k])).toList();
                    List<RetryLateness.Late> late = RetryLateness.dueWhileDown(checks, watcher, load.tally(), outages);
                    softly.assertThat(late.size()).as("retries due while the service was down").isGreaterThanOrEqualTo(RETRY_BURST);
                    softly.assertThat(late).as("retries forwarded before their due time")
                            .noneMatch(l -> l.forwardedAtMs() < l.dueAtMs());
                    // held by the budget, as in CrashRecoveryIT: /providers said the scope's retry budget alone held its
                    // retries between the last time the service was ready before the retry left and the moment it left
                    figures.putAll(RetryLateness.check(late, outages, RETRIES_WITHIN,
                            l -> budget.exhausted(l.scope(), l.visibleAtMs() - l.fromReadyMs(), l.forwardedAtMs()), softly));
                    figures.put("/providers samples of the retry budget", budget.samples());
                    figures.putAll(RetryLateness.hops(late, RetryLateness.scheduledAt(checks, gateInput)));
                    // the retries due in the 10 s after each restart was ready: those the catch-up's provider windows held
                    for (int k = 0; k < KILLS; k++) {
                        List<RetryLateness.Late> after = RetryLateness.dueWhileDown(checks, watcher, load.tally(),
                                List.of(new RetryLateness.Outage(healthyAt[k], healthyAt[k] + AFTER_READY.toMillis())));
                        figures.put("retries due in the " + AFTER_READY.toSeconds() + " s after ready " + (k + 1)
                                + ": count, max ms visible after due", after.size() + ", "
                                + after.stream().mapToLong(RetryLateness.Late::fromDueMs).max().orElse(0));
                    }
                }
            }
        });
    }

    /** Waits until every retried result of the load is on retry-ready, or {@code atMost}. */
    private static void awaitEveryRetry(PipelineChecks checks, Set<String> retried, Duration atMost) throws InterruptedException {
        long until = System.currentTimeMillis() + atMost.toMillis();
        while (System.currentTimeMillis() < until) {
            Set<String> ready = checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).stream()
                    .map(RetryRequest::getResultId).collect(Collectors.toSet());
            if (ready.containsAll(retried)) {
                return;
            }
            Thread.sleep(500);
        }
    }
}
