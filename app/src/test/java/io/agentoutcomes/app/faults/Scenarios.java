package io.agentoutcomes.app.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;

/** What the scenarios share: how they run and report, their work directories and the service's settings for them. */
final class Scenarios {
    private Scenarios() {
    }

    /** One scenario's body: it injects its faults and records its checks in {@code softly} and its figures. */
    @FunctionalInterface
    interface Body {
        void run(Path dir, Random random, FaultFigures figures, SoftAssertions softly) throws Exception;
    }

    /**
     * Runs a scenario in a fresh work directory with a seed ({@code -Dfault.seed} repeats a run), reports its figures
     * whatever happens, then fails if any of its checks did.
     */
    static void run(String title, String workDir, Body body) throws Exception {
        long seed = Long.getLong("fault.seed", System.nanoTime());
        FaultFigures figures = new FaultFigures(title);
        figures.put("seed (-Dfault.seed)", seed);
        SoftAssertions softly = new SoftAssertions();
        String result = "did not finish";
        Path dir = workDir(workDir);
        try {
            body.run(dir, new Random(seed), figures, softly);
            result = softly.errorsCollected().isEmpty() ? "passed"
                    : softly.errorsCollected().size() + " assertion(s) failed";
        } finally {
            figures.report(result);
        }
        softly.assertAll();
        assertThat(result).isEqualTo("passed");
    }

    /** A fresh directory for one scenario's broker logs, app data and process logs under {@code app/target/faults}. */
    static Path workDir(String scenario) throws IOException {
        Path dir = Path.of(System.getProperty("fault.work.dir", "target/faults")).toAbsolutePath().resolve(scenario);
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return Files.createDirectories(dir);
    }

    /**
     * SIGKILLs the service, leaves it down 1–3 s, starts it again on the same data and ports and waits until it is
     * ready; records the time from the kill to {@code /health} 200 as figure "SIGKILL n" and checks it was ready
     * within 15 s of the restart. The time from the kill.
     */
    static Duration killAndRestart(AppInstance app, Path dir, Random random, FaultFigures figures, SoftAssertions softly,
                                   int kill) throws Exception {
        long killedAt = System.currentTimeMillis();
        app.kill();
        Thread.sleep(1_000 + random.nextInt(2_000));
        app.start(dir.resolve("app.log"));
        Duration ready = app.awaitHealthy(Duration.ofSeconds(120));
        Duration down = Duration.ofMillis(System.currentTimeMillis() - killedAt);
        figures.put("SIGKILL " + kill + ": from the kill to /health 200", down.toMillis() + " ms");
        softly.assertThat(ready).as("restart %d: from the start to /health/ready 200", kill).isLessThanOrEqualTo(Duration.ofSeconds(15));
        return down;
    }

    /**
     * The service's settings under fault, exactly its defaults (exactly-once, 2 stream threads, static membership with a
     * 6 s session, the 60 s analytics grace, the 1 s flush interval, the default backoff and tiers ...) with only the
     * scenario's shape beside them: two partitions and the replication factor of its cluster.
     */
    static Map<String, String> defaults(int replicationFactor) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("topic.partitions", "2");
        settings.put("topic.replication.factor", String.valueOf(replicationFactor));
        return settings;
    }

    /**
     * {@link #defaults} with a shorter backoff, 1 to 2.5 s capped at 4 s, so that retries come due while an instance is
     * down in scenarios whose subject is something else; {@code CrashRecoveryIT} keeps the default backoff.
     */
    static Map<String, String> serviceSettings(int replicationFactor) {
        Map<String, String> settings = defaults(replicationFactor);
        settings.put("backoff.default.base.ms", "1000");
        settings.put("backoff.base.llm-timeout.ms", "1500");
        settings.put("backoff.base.llm-rate-limit.ms", "2000");
        settings.put("backoff.base.llm-unavailable.ms", "2500");
        settings.put("backoff.cap.ms", "4000");
        return settings;
    }
}
