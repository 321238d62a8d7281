package io.agentoutcomes.app.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.faults.HostileCase.Classified;
import io.agentoutcomes.app.faults.HostileCase.DeadLettered;
import io.agentoutcomes.app.faults.HostileCase.Rejected;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * The hostile corpus ({@link HostileCorpus}) interleaved with good records, into the service as its own process: each
 * bad record lands on {@code rejected-input} or {@code dead-letter} with its reason, every good one comes out, the
 * service never leaves RUNNING, and no credential from the corpus is on any topic, log line or HTTP answer.
 */
class HostileCorpusIT {
    private static final int GOOD_BETWEEN_CASES = 3;
    /** Topics only the corpus writes to, with credentials in them on purpose; the pipeline's own topics are scanned. */
    private static final Set<String> CORPUS_INPUT_TOPICS = Set.of(TopicNames.AGENT_RESULTS_JSON,
            TopicNames.NODE_FINISHED_JSON, TopicNames.CONTINUATION_EVENTS_JSON, TopicNames.OTLP_SPANS);

    @Test
    void everyHostileRecordLandsWithItsReasonEveryGoodOneComesOutAndNoCredentialLeaks() throws Exception {
        Scenarios.run("HostileCorpusIT: hostile corpus interleaved with good records", "hostile-corpus",
                (dir, random, figures, softly) -> {
            try (BrokerCluster kafka = BrokerCluster.start(dir.resolve("kafka"), 1);
                 AppInstance app = AppInstance.create("app", dir, kafka.bootstrapServers(), Optional.empty(),
                         "agent-outcomes", Scenarios.serviceSettings(1))) {
                Path log = dir.resolve("app.log");
                figures.put("start to /health 200", app.start(log).awaitHealthy(Duration.ofSeconds(120)));
                try (TopicWatcher watcher = new TopicWatcher(kafka.bootstrapServers(), PipelineChecks.OUTPUT_TOPICS);
                     HealthSampler health = new HealthSampler(app);
                     LoadProducer producer = new LoadProducer(kafka.bootstrapServers())) {
                    figures.put("/health steady at 200 for 3 s after", Duration.ofMillis(
                            health.awaitSteady(Duration.ofSeconds(3), Duration.ofSeconds(60))));
                    long healthySince = System.currentTimeMillis();
                    MixedLoad good = new MixedLoad("hostile", app.registryUrl());
                    PipelineChecks checks = new PipelineChecks(app.registryUrl(), watcher);
                    // -Dhostile.cases=a,b runs only those: one deadly case otherwise hides every case after it
                    String only = System.getProperty("hostile.cases", "");
                    Set<String> names = only.isBlank() ? Set.of() : Set.of(only.split(","));
                    List<HostileCase> cases = HostileCorpus.cases(app.registryUrl(), MixedLoad.EVENT_HOUR.toEpochMilli(), random)
                            .stream().filter(c -> names.isEmpty() || names.contains(c.name())).toList();
                    figures.put("hostile cases", cases.size());
                    assertThat(HostileCase.names(cases)).as("case names").doesNotHaveDuplicates();
                    long hostileRecords = 0;
                    for (HostileCase hostile : cases) {
                        producer.send(good.next(GOOD_BETWEEN_CASES));
                        if (hostile.expect() instanceof SkewedClockCase.Expected) {
                            SkewedClockCase.send(producer, hostile);
                        } else {
                            producer.send(hostile.records());
                        }
                        hostileRecords += hostile.records().size();
                        producer.flush();
                    }
                    producer.send(good.next(GOOD_BETWEEN_CASES));
                    producer.flush();
                    figures.put("hostile records", hostileRecords);
                    figures.put("good records", good.tally().inputs());

                    checks.awaitOutcomes(good.tally(), Duration.ofSeconds(60));
                    watcher.await(seen -> landings(checks, watcher, cases).values().stream().allMatch(Objects::isNull),
                            Duration.ofSeconds(30), Duration.ofSeconds(3));
                    figures.putAll(checks.checkOutcomesAndRetries(good.tally(), softly));
                    Map<String, String> wrong = landings(checks, watcher, cases);
                    wrong.values().removeIf(Objects::isNull);
                    figures.put("hostile cases landed as expected", cases.size() - wrong.size());
                    figures.put("hostile cases landed wrong", wrong);
                    softly.assertThat(wrong).as("hostile cases that did not land where they must, with their reason").isEmpty();
                    double clamped = SkewedClockCase.clampedOnMetrics(app);
                    figures.put("input timestamps clamped (/metrics)", clamped);
                    softly.assertThat(clamped).as("agent_outcomes_input_timestamps_clamped_total: the skewed clock's one record")
                            .isEqualTo(names.isEmpty() || names.contains(SkewedClockCase.NAME) ? 1.0 : 0.0);
                    figures.put("hostile cases: where they landed", where(checks, watcher, cases));

                    List<String> leaks = leaks(kafka.bootstrapServers(), app, dir);
                    figures.put("credential leaks", leaks);
                    softly.assertThat(leaks).as("credential-like strings of the corpus on topics, log lines, HTTP answers")
                            .isEmpty();

                    List<String> notRunning = health.notHealthySince(healthySince);
                    figures.put("/health other than 200", notRunning);
                    softly.assertThat(notRunning).as("/health answers other than 200 (the service left RUNNING)").isEmpty();
                    List<String> errors = Files.readAllLines(log).stream().filter(line -> line.contains(" ERROR ")).toList();
                    figures.put("log lines at ERROR", errors.size());
                    softly.assertThat(errors).as("log lines at ERROR (a stream thread that died is logged so)").isEmpty();
                    softly.assertThat(app.isAlive()).as("the service still runs").isTrue();
                }
            }
        });
    }

    /** Per case, what is wrong with where its records landed; null when they landed as expected. */
    private static Map<String, String> landings(PipelineChecks checks, TopicWatcher watcher, List<HostileCase> cases) {
        Map<String, List<Map<String, String>>> rejected = rejectedByCase(watcher);
        Map<String, List<ClassifiedOutcome>> outcomes = byTask(checks.values(PipelineChecks.OUTCOMES, ClassifiedOutcome.class));
        Map<String, List<ClassifiedOutcome>> dead = byTask(checks.values(PipelineChecks.DEAD_LETTER, ClassifiedOutcome.class));
        Map<String, Long> ready = new HashMap<>();
        checks.values(PipelineChecks.RETRY_READY, RetryRequest.class).forEach(r -> ready.merge(r.getTaskId(), 1L, Long::sum));
        Map<String, List<String>> replay = checks.latestReplayStates();
        Map<String, String> wrong = new LinkedHashMap<>();
        for (HostileCase hostile : cases) {
            List<Map<String, String>> landed = rejected.getOrDefault(hostile.name(), List.of());
            String problem;
            if (hostile.expect() instanceof Rejected r) {
                problem = rejectedProblem(r, landed);
                List<ClassifiedOutcome> classified = outcomes.get(HostileCase.task(hostile.name()));
                if (problem != null && classified != null) {
                    problem += "; classified instead: " + describe(classified);
                }
            } else if (hostile.expect() instanceof DeadLettered d) {
                problem = deadLetterProblem(d, dead, outcomes, ready, landed);
            } else if (hostile.expect() instanceof OtlpHostileCases.RefusedBeside beside) {
                String refused = rejectedProblem(beside.rejected(), landed);
                String classified = classifiedProblem(beside.classified(), outcomes, replay, landed);
                problem = refused == null ? classified : classified == null ? refused : refused + "; " + classified;
            } else if (hostile.expect() instanceof SkewedClockCase.Expected skewed) {
                problem = SkewedClockCase.problem(skewed, checks, watcher);
            } else {
                problem = classifiedProblem((Classified) hostile.expect(), outcomes, replay, landed);
            }
            wrong.put(hostile.name(), problem);
        }
        return wrong;
    }

    private static String rejectedProblem(Rejected r, List<Map<String, String>> landed) {
        if (landed.size() != r.count()) {
            return "expected " + r.count() + " on rejected-input, found " + landed.size();
        }
        List<String> bad = new ArrayList<>();
        for (Map<String, String> headers : landed) {
            String value = headers.get(r.header());
            if (value == null || !r.values().isEmpty() && !r.values().contains(value)) {
                bad.add(r.header() + "=" + value + " (expected one of " + r.values() + ")");
            }
        }
        return bad.isEmpty() ? null : String.join("; ", bad);
    }

    private static String deadLetterProblem(DeadLettered d, Map<String, List<ClassifiedOutcome>> dead,
                                            Map<String, List<ClassifiedOutcome>> outcomes, Map<String, Long> ready,
                                            List<Map<String, String>> landed) {
        List<ClassifiedOutcome> letters = dead.getOrDefault(d.task(), List.of());
        if (letters.size() != 1) {
            return "expected 1 on dead-letter, found " + letters.size() + "; outcomes " + describe(outcomes.get(d.task()))
                    + "; retry-ready " + ready.getOrDefault(d.task(), 0L) + "; rejected-input " + landed.size();
        }
        if (ready.containsKey(d.task())) {
            return "forwarded to retry-ready " + ready.get(d.task()) + " time(s)";
        }
        ClassifiedOutcome letter = letters.get(0);
        String text = letter.getReason() + " " + (letter.getDecision() == null ? ""
                : letter.getDecision().getReason() + " " + letter.getDecision().getRule() + " "
                + letter.getDecision().getStopReason());
        return d.reason() == null || text.contains(d.reason()) ? null
                : "dead-lettered without reason " + d.reason() + ": " + text;
    }

    private static String classifiedProblem(Classified c, Map<String, List<ClassifiedOutcome>> outcomes,
                                            Map<String, List<String>> replay, List<Map<String, String>> landed) {
        List<ClassifiedOutcome> found = outcomes.getOrDefault(c.task(), List.of());
        List<String> bad = new ArrayList<>();
        if (found.size() != c.count()) {
            bad.add("expected " + c.count() + " outcome(s) for " + c.task() + ", found " + found.size()
                    + "; rejected-input " + landed.size() + " " + landed.stream().map(h -> h.get("rejected.reason")
                    + "/" + h.get("__streams.errors.exception")).toList());
        }
        found.stream().filter(o -> o.getResultType() != c.type())
                .forEach(o -> bad.add(o.getResultId() + " is " + o.getResultType() + ", expected " + c.type()));
        if (!c.consecutiveFailures().isEmpty()) {
            List<Integer> counts = found.stream().map(o -> o.getDecision() == null ? 0
                    : o.getDecision().getConsecutiveFailures()).sorted().toList();
            if (!counts.equals(c.consecutiveFailures())) {
                bad.add("consecutive failures " + counts + ", expected " + c.consecutiveFailures());
            }
        }
        if (c.job() != null && !c.completedNodes().equals(replay.get(c.job()))) {
            List<String> actual = replay.get(c.job());
            bad.add("replay state of " + c.job() + " has " + (actual == null ? "no state" : actual.size() + " completed nodes")
                    + ", expected " + c.completedNodes().size());
        }
        return bad.isEmpty() ? null : String.join("; ", bad);
    }

    /** Per case, where its records went, for the figures. */
    private static Map<String, String> where(PipelineChecks checks, TopicWatcher watcher, List<HostileCase> cases) {
        Map<String, List<Map<String, String>>> rejected = rejectedByCase(watcher);
        Map<String, String> where = new TreeMap<>();
        for (HostileCase hostile : cases) {
            List<Map<String, String>> landed = rejected.getOrDefault(hostile.name(), List.of());
            where.put(hostile.name(), landed.isEmpty() ? "not on rejected-input"
                    : "rejected-input " + landed.stream().map(h -> Optional.ofNullable(h.get("rejected.reason"))
                    .orElse(h.get("__streams.errors.exception"))).toList());
        }
        return where;
    }

    private static Map<String, List<Map<String, String>>> rejectedByCase(TopicWatcher watcher) {
        Map<String, List<Map<String, String>>> byCase = new HashMap<>();
        for (TopicWatcher.Seen seen : watcher.records(PipelineChecks.REJECTED)) {
            Map<String, String> headers = new HashMap<>();
            for (Header header : seen.record().headers()) {
                headers.put(header.key(), header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8));
            }
            String name = headers.get(HostileCase.CASE_HEADER);
            byCase.computeIfAbsent(name == null ? "(no case header)" : name, n -> new ArrayList<>()).add(headers);
        }
        return byCase;
    }

    private static Map<String, List<ClassifiedOutcome>> byTask(List<ClassifiedOutcome> outcomes) {
        Map<String, List<ClassifiedOutcome>> byTask = new HashMap<>();
        outcomes.forEach(o -> byTask.computeIfAbsent(o.getTaskId(), t -> new ArrayList<>()).add(o));
        return byTask;
    }

    private static String describe(List<ClassifiedOutcome> outcomes) {
        return outcomes == null ? "none" : outcomes.stream().map(o -> o.getResultType() + "/"
                + (o.getDecision() == null ? "-" : o.getDecision().getHandling() + " " + o.getRetryDelayMs() + " ms")).toList()
                .toString();
    }

    /**
     * Every place a credential of the corpus could surface: every topic of the cluster but the JSON input topics the
     * corpus itself writes (internal ones too, aborted transactions included: read_uncommitted), the service's log,
     * and its HTTP answers.
     */
    private static List<String> leaks(String bootstrapServers, AppInstance app, Path dir) throws Exception {
        List<String> leaks = new ArrayList<>();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                     ConsumerConfig.GROUP_ID_CONFIG, "leak-scan-" + UUID.randomUUID(),
                     ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                     ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(16 * 1024 * 1024)),
                     new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true))
                    .names().get();
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.listTopics().forEach((topic, infos) -> {
                if (topics.contains(topic) && !CORPUS_INPUT_TOPICS.contains(topic)) {
                    infos.forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
                }
            });
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    StringBuilder text = new StringBuilder();
                    if (record.key() != null) {
                        text.append(new String(record.key(), StandardCharsets.ISO_8859_1));
                    }
                    if (record.value() != null) {
                        text.append(new String(record.value(), StandardCharsets.ISO_8859_1));
                    }
                    for (Header header : record.headers()) {
                        text.append(header.key());
                        if (header.value() != null) {
                            text.append(new String(header.value(), StandardCharsets.ISO_8859_1));
                        }
                    }
                    secretsIn(text.toString()).forEach(secret -> leaks.add("topic " + record.topic() + "-" + record.partition()
                            + "@" + record.offset() + ": " + secret));
                }
            }
        }
        try (Stream<String> lines = Files.lines(app.log(), StandardCharsets.ISO_8859_1)) {
            lines.forEach(line -> secretsIn(line).forEach(secret -> leaks.add("log line: " + secret)));
        }
        for (String path : List.of("/health", "/metrics", "/jobs", "/analytics?window=total&by=agent",
                "/analytics?window=1h&by=provider", "/ui/jobs", "/", "/jobs/hostile-job-no-attempt")) {
            try {
                HttpResponse<String> response = app.get(path);
                secretsIn(response.body()).forEach(secret -> leaks.add("GET " + path + ": " + secret));
            } catch (IOException e) {
                leaks.add("GET " + path + " failed: " + e);
            }
        }
        return leaks;
    }

    private static List<String> secretsIn(String text) {
        return HostileCorpus.SECRETS.stream().filter(text::contains).toList();
    }
}
