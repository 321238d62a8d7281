package io.agentoutcomes.app.faults;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A cluster of three broker processes (replication 3, {@code min.insync.replicas} 2); one broker killed with SIGKILL
 * mid-load and restarted on its old log. The service must ride it out: nothing lost, nothing twice.
 */
class BrokerFailoverIT {

    @Test
    void oneOfThreeBrokersKilledAndRestartedMidLoadLosesAndDuplicatesNothing() throws Exception {
        Scenarios.run("BrokerFailoverIT: 1 of 3 brokers SIGKILLed and restarted under load", "broker-failover",
                (dir, random, figures, softly) -> {
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 3);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", Scenarios.serviceSettings(3))) {
                figures.put("first start to /health 200", app.start(dir.resolve("app.log")).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), PipelineChecks.OUTPUT_TOPICS);
                     HealthSampler health = new HealthSampler(app);
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    MixedLoad load = new MixedLoad("broker", app.registryUrl());
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    producer.startSteady(load, 15, Duration.ofMillis(500));
                    Thread.sleep(8_000 + random.nextInt(5_000));
                    int victim = random.nextInt(kafka.size());
                    long killedAt = System.currentTimeMillis();
                    kafka.kill(victim);
                    Thread.sleep(5_000 + random.nextInt(3_000));
                    Duration down = Duration.ofMillis(System.currentTimeMillis() - killedAt);
                    kafka.restart(victim);
                    kafka.awaitBrokers(3, Duration.ofSeconds(90));
                    Duration rejoined = Duration.ofMillis(System.currentTimeMillis() - killedAt);
                    figures.put("broker killed", "node " + (victim + 1));
                    figures.put("broker registered again after (from kill)", rejoined);
                    Thread.sleep(10_000);
                    producer.stop();
                    app.awaitHealthy(Duration.ofSeconds(60));
                    Duration toHealthy = Duration.ofMillis(health.msUntilHealthyAfter(killedAt));
                    figures.put("/health other than 200 after the kill", health.notHealthySince(killedAt));
                    figures.putAll(checks.finishAndCheck(load, producer, app, softly));
                    figures.fault("SIGKILL broker " + (victim + 1), down, toHealthy, checks.msToNextOutcome(killedAt),
                            checks.msUntilEveryPartitionProduced(killedAt));
                    String end = app.healthState();
                    figures.put("health at the end", end);
                    softly.assertThat(end).as("/health at the end").contains("RUNNING");
                    softly.assertThat(app.isAlive()).as("the service still runs").isTrue();
                }
            }
        });
    }
}
