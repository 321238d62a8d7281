package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the service with one application id; the second killed with SIGKILL mid-load. The first must take
 * over its partitions: its task state, its pending retries (forwarded once, never early) and the interactive queries
 * for its jobs (answered right, or 503 while partitions move, never wrong). The second instance uses the first one's
 * embedded registry, so it is the one killed: the registry has to stay up.
 */
class InstanceFailoverIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long BACK_WITHIN_MS = 10_000;
    private static final long ROLLED_BACK_WITHIN_MS = 21_000;
    private static final long AFTER_ROLLBACK_MS = 3_000;

    @Test
    void secondInstanceKilledMidLoadItsStateRetriesAndQueriesFailOverToTheFirst() throws Exception {
        Scenarios.run("InstanceFailoverIT: 1 of 2 instances SIGKILLed under load", "instance-failover",
                (dir, random, figures, softly) -> {
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance first = AppInstance.create("app-1", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", Scenarios.serviceSettings(1))) {
                figures.put("first instance start to /health 200",
                        first.start(dir.resolve("app-1.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (AppInstance second = AppInstance.create("app-2", dir, kafka.bootstrapServers(),
                             Optional.of(first.registryUrl()), "agent-outcomes", Scenarios.serviceSettings(1));
                     TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), PipelineChecks.OUTPUT_TOPICS);
                     HealthSampler health = new HealthSampler(first);
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    figures.put("second instance start to /health 200",
                            second.start(dir.resolve("app-2.log")).awaitHealthy(Duration.ofSeconds(120)));
                    first.awaitHealthy(Duration.ofSeconds(60));
                    MixedLoad load = new MixedLoad("instances", first.registryUrl());
                    PipelineChecks checks = new PipelineChecks(first.registryUrl(), watcher);
                    producer.startSteady(load, 15, Duration.ofMillis(500));
                    Thread.sleep(10_000 + random.nextInt(5_000));

                    // jobs whose final state is already on replay-state: both instances must answer it exactly
                    Map<String, List<String>> settled = settledJobs(checks, load.tally());
                    List<String> wrongBefore = new ArrayList<>();
                    for (AppInstance instance : List.of(first, second)) {
                        wrongBefore.addAll(wrongAnswers(instance, settled, false));
                    }
                    figures.put("jobs queried on both instances before the kill", settled.size());
                    softly.assertThat(settled).as("jobs settled before the kill").isNotEmpty();
                    softly.assertThat(wrongBefore).as("job queries answered wrong before the kill").isEmpty();

                    // the jobs the survivor answers from its own store: it must answer them throughout the failover
                    Map<String, List<String>> owned = new TreeMap<>();
                    for (Map.Entry<String, List<String>> job : settled.entrySet()) {
                        if (first.get("/jobs/" + job.getKey() + "/completed").headers().firstValue("X-Answered-By").isPresent()) {
                            owned.put(job.getKey(), job.getValue());
                        }
                    }
                    figures.put("settled jobs the survivor answered from its own store before the kill", owned.size());

                    long killedAt = System.currentTimeMillis();
                    second.kill();
                    List<String> wrongDuring = new ArrayList<>();
                    List<String> ownedUnanswered = new ArrayList<>();
                    int queriesDuring = 0;
                    long until = System.currentTimeMillis() + 15_000;
                    while (System.currentTimeMillis() < until) {
                        wrongDuring.addAll(wrongAnswers(first, settled, true));
                        ownedUnanswered.addAll(wrongAnswers(first, owned, false));
                        queriesDuring += settled.size() + owned.size();
                        Thread.sleep(500);
                    }
                    producer.stop();
                    first.awaitHealthy(Duration.ofSeconds(60));
                    figures.put("job queries on the survivor during the failover", queriesDuring);
                    figures.put("/health of the survivor other than 200 after the kill", health.notHealthySince(killedAt));
                    softly.assertThat(wrongDuring).as("job queries answered wrong (not the state, not 503) during the failover")
                            .isEmpty();
                    figures.put("job queries on the survivor's own jobs not answered during the failover", ownedUnanswered.size());
                    // its own jobs are answered throughout: not refused for the rebalance (the code before answered 503
                    // 'Kafka Streams is REBALANCING'), nor while Kafka Streams moves their task between its two threads
                    // (it waits for the task to open again: before, 503 'partition 0 ... is not open on this instance yet')
                    softly.assertThat(ownedUnanswered).as("the survivor's own jobs not answered (503 or wrong) during the failover")
                            .isEmpty();

                    figures.putAll(checks.finishAndCheck(load, producer, first, softly));
                    figures.fault("SIGKILL instance 2", null, Duration.ofMillis(health.msUntilHealthyAfter(killedAt)),
                            checks.msToNextOutcome(killedAt), checks.msUntilEveryPartitionProduced(killedAt));
                    // issue 29: at the defaults (6 s session, a standby of every task) the survivor has taken the
                    // dead one's tasks over and every partition is producing within 10 s of the kill (Kafka's 45 s
                    // session: 46 s), and it is ready within 10 s: the dead instance's two static members (one per
                    // stream thread) can expire one session after the other, a second rebalance, but an instance that
                    // has run stays ready through a rebalance (StreamsHealth). Unless the dead instance left a
                    // transaction open: then the changelogs and repartition topics it wrote are read (restored,
                    // processed) past it only once the broker rolls it back, 10-20 s after the kill
                    // (HangingTransactions; .ci/run at d304975 and a local run: ready 16.1 s and 13.4 s, the
                    // roll-back 13.2 s after the kill in the local one). Then the bound is that roll-back.
                    String deadProcess = HangingTransactions.processId(second, "agent-outcomes");
                    OptionalLong rolledBack = HangingTransactions.lastRolledBack(kafka.logs(), "agent-outcomes", deadProcess);
                    long bound = BACK_WITHIN_MS;
                    if (rolledBack.isPresent()) {
                        long rollbackMs = rolledBack.getAsLong() - killedAt;
                        figures.put("the dead instance's open transaction rolled back by the broker after (ms)", rollbackMs);
                        // Kafka Streams' transaction.timeout.ms (10 s) plus the broker's check interval (10 s)
                        softly.assertThat(rollbackMs).as("ms from the kill until the broker rolled back the dead "
                                + "instance's open transaction").isBetween(0L, ROLLED_BACK_WITHIN_MS);
                        bound = Math.max(bound, rollbackMs + AFTER_ROLLBACK_MS);
                    } else {
                        figures.put("the dead instance's open transaction rolled back by the broker after (ms)", "none open");
                    }
                    softly.assertThat(health.msUntilHealthyAfter(killedAt))
                            .as("ms from the kill until the survivor was ready again").isBetween(0L, bound);
                    softly.assertThat(checks.msUntilEveryPartitionProduced(killedAt))
                            .as("ms from the kill until every partition produced again").isBetween(0L, bound);
                    List<String> wrongAfter = wrongAnswers(first, expectedJobs(load.tally()), false);
                    figures.put("jobs queried on the survivor at the end", load.tally().completedNodes.size());
                    softly.assertThat(wrongAfter).as("job queries answered wrong by the survivor at the end").isEmpty();
                    String end = first.healthState();
                    figures.put("health of the survivor at the end", end);
                    softly.assertThat(end).as("/health of the survivor at the end").contains("RUNNING");
                }
            }
        });
    }

    private static Map<String, List<String>> expectedJobs(Tally tally) {
        Map<String, List<String>> jobs = new TreeMap<>();
        tally.completedNodes.forEach((job, nodes) -> jobs.put(job, List.copyOf(nodes)));
        return jobs;
    }

    /** Jobs whose replay state on the topic already equals the tally's: their answer cannot change any more. */
    private static Map<String, List<String>> settledJobs(PipelineChecks checks, Tally tally) {
        Map<String, List<String>> expected = expectedJobs(tally);
        Map<String, List<String>> settled = new TreeMap<>();
        checks.latestReplayStates().forEach((job, completed) -> {
            if (completed != null && completed.equals(expected.get(job))) {
                settled.put(job, completed);
            }
        });
        return settled;
    }

    /**
     * Queries {@code GET /jobs/{id}/completed} for each job and lists every answer that is not exactly its completed
     * nodes; with {@code unavailableAllowed}, a 503 (partitions moving) is fine too.
     */
    private static List<String> wrongAnswers(AppInstance instance, Map<String, List<String>> jobs,
                                             boolean unavailableAllowed) throws InterruptedException {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, List<String>> job : jobs.entrySet()) {
            try {
                HttpResponse<String> response = instance.get("/jobs/" + job.getKey() + "/completed");
                if (response.statusCode() == 503 && unavailableAllowed) {
                    continue;
                }
                if (response.statusCode() != 200) {
                    wrong.add(job.getKey() + ": " + response.statusCode() + " " + response.body());
                    continue;
                }
                JsonNode answer = JSON.readTree(response.body());
                List<String> completed = new ArrayList<>();
                answer.get("completedNodeIds").forEach(node -> completed.add(node.asText()));
                if (!completed.equals(job.getValue())) {
                    wrong.add(job.getKey() + ": " + completed + " (expected " + job.getValue() + ")");
                }
            } catch (IOException e) {
                wrong.add(job.getKey() + ": " + e);
            }
        }
        return wrong;
    }
}
