package io.agentoutcomes.app.faults;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ErrorHandling;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.assertj.core.api.SoftAssertions;

/**
 * The checks every scenario ends with, against the generator's tally: every input exactly one classified outcome of
 * the expected type; every retry forwarded once and never before its {@code dueAt}; every permanent failure
 * dead-lettered once, every compensatable one sent to compensations once; closed 1m and 1h windows and the running totals equal to the tally's sums to the last digit;
 * each job's replay state with exactly its completed nodes. Soft assertions: a run reports every difference, not the
 * first.
 */
final class PipelineChecks {
    static final String OUTCOMES = TopicNames.OUTCOMES_CLASSIFIED;
    static final String RETRY_READY = TopicNames.RETRY_READY;
    static final String DEAD_LETTER = TopicNames.DEAD_LETTER;
    static final String METRICS_1M = TopicNames.AGENT_METRICS_1M;
    static final String METRICS_1H = TopicNames.AGENT_METRICS_1H;
    static final String REPLAY_STATE = TopicNames.REPLAY_STATE;
    static final String REJECTED = TopicNames.REJECTED_INPUT;
    static final String COMPENSATIONS = TopicNames.COMPENSATIONS;
    static final List<String> OUTPUT_TOPICS = List.of(OUTCOMES, RETRY_READY, DEAD_LETTER, METRICS_1M, METRICS_1H,
            REPLAY_STATE, REJECTED, COMPENSATIONS);

    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final Map<String, Object> serde;
    private final TopicWatcher watcher;
    private final Map<String, Object> decoded = new ConcurrentHashMap<>();
    private final Map<Class<?>, Deserializer<? extends SpecificRecord>> deserializers =
            new ConcurrentHashMap<>();

    PipelineChecks(String registryUrl, TopicWatcher watcher) {
        this.serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, registryUrl);
        this.watcher = watcher;
    }

    <V extends SpecificRecord> List<V> values(String topic, Class<V> type) {
        return watcher.records(topic).stream().map(s -> decode(s, type)).toList();
    }

    /**
     * The value of a record read, decoded once: the waits look at everything read every quarter second, and the
     * metrics topics hold a record per window change.
     */
    <V extends SpecificRecord> V decode(TopicWatcher.Seen seen, Class<V> type) {
        if (seen.record().value() == null) {
            return null;
        }
        String at = seen.record().topic() + "/" + seen.record().partition() + "/" + seen.record().offset();
        Object value = decoded.computeIfAbsent(at, k -> deserializers.computeIfAbsent(type,
                t -> AvroSerde.specific(type).configured(serde, false).deserializer())
                .deserialize(seen.record().topic(), seen.record().value()));
        return type.cast(value);
    }

    /** Result ids on outcomes-classified that the tally expects, counted (duplicates included). */
    long expectedOutcomesSeen(Tally tally) {
        return values(OUTCOMES, ClassifiedOutcome.class).stream()
                .filter(o -> tally.outcomes.containsKey(o.getResultId())).count();
    }

    /** Waits until outcomes-classified holds at least one outcome per tallied input (or the timeout passes). */
    boolean awaitOutcomes(Tally tally, Duration timeout) throws InterruptedException {
        Set<String> expected = Set.copyOf(tally.outcomes.keySet());
        return watcher.await(seen -> seen.stream().filter(s -> s.record().topic().equals(OUTCOMES))
                .map(s -> decode(s, ClassifiedOutcome.class).getResultId())
                .filter(expected::contains).distinct().count() >= expected.size(), timeout, Duration.ofSeconds(3));
    }

    /**
     * The first outcome that became visible after {@code sinceMs} (the moment of a fault) and was classified after it:
     * how long the pipeline took to produce again. -1 when none came.
     */
    long msToNextOutcome(long sinceMs) {
        return watcher.records(OUTCOMES).stream()
                .filter(s -> s.readAtMs() >= sinceMs)
                .filter(s -> decode(s, ClassifiedOutcome.class).getClassifiedAt() >= sinceMs)
                .mapToLong(s -> s.readAtMs() - sinceMs).min().orElse(-1);
    }

    /**
     * Per partition of outcomes-classified, the first outcome classified after {@code sinceMs}; the latest of those:
     * how long until every partition (so the tasks of a killed instance too) produced again. -1 when one never did.
     */
    long msUntilEveryPartitionProduced(long sinceMs) {
        Map<Integer, Long> first = new TreeMap<>();
        Set<Integer> partitions = new TreeSet<>();
        for (TopicWatcher.Seen seen : watcher.records(OUTCOMES)) {
            partitions.add(seen.record().partition());
            if (seen.readAtMs() >= sinceMs
                    && decode(seen, ClassifiedOutcome.class).getClassifiedAt() >= sinceMs) {
                first.merge(seen.record().partition(), seen.readAtMs() - sinceMs, Math::min);
            }
        }
        return first.keySet().containsAll(partitions) ? first.values().stream().mapToLong(Long::longValue).max().orElse(-1)
                : -1;
    }

    /** Classified outcomes, retries and dead letters against the tally; returns figures for the report. */
    Map<String, Object> checkOutcomesAndRetries(Tally tally, SoftAssertions softly) {
        Map<String, Object> figures = new TreeMap<>();
        List<ClassifiedOutcome> outcomes = values(OUTCOMES, ClassifiedOutcome.class);
        Map<String, Long> perResult = outcomes.stream().collect(Collectors.groupingBy(ClassifiedOutcome::getResultId,
                TreeMap::new, Collectors.counting()));
        Map<String, String> typeOf = new HashMap<>();
        outcomes.forEach(o -> typeOf.put(o.getResultId(), o.getResultType().name()));
        Set<String> missing = new TreeSet<>(tally.outcomes.keySet());
        missing.removeAll(perResult.keySet());
        Map<String, Long> duplicated = perResult.entrySet().stream().filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
        Map<String, String> wrongType = new TreeMap<>();
        tally.outcomes.forEach((id, type) -> {
            if (typeOf.containsKey(id) && !typeOf.get(id).equals(type.name())) {
                wrongType.put(id, typeOf.get(id) + " (expected " + type + ")");
            }
        });
        figures.put("outcomes expected", tally.outcomes.size());
        figures.put("outcomes read", outcomes.size());
        figures.put("outcomes missing", missing.size());
        figures.put("outcomes duplicated", duplicated.size());
        softly.assertThat(missing).as("inputs without a classified outcome").isEmpty();
        softly.assertThat(duplicated).as("inputs with more than one classified outcome").isEmpty();
        softly.assertThat(wrongType).as("outcomes of another result type than the generator's").isEmpty();

        Set<String> decidedRetry = outcomes.stream().filter(o -> o.getDecision() != null
                        && o.getDecision().getHandling() == ErrorHandling.RETRY).map(ClassifiedOutcome::getResultId)
                .filter(tally.outcomes::containsKey).collect(Collectors.toCollection(TreeSet::new));
        softly.assertThat(decidedRetry).as("outcomes decided RETRY").isEqualTo(new TreeSet<>(tally.retried));

        List<TopicWatcher.Seen> readySeen = watcher.records(RETRY_READY);
        Map<String, Long> forwarded = new TreeMap<>();
        List<String> early = new ArrayList<>();
        long maxLateMs = 0;
        for (TopicWatcher.Seen seen : readySeen) {
            RetryRequest retry = decode(seen, RetryRequest.class);
            if (!tally.outcomes.containsKey(retry.getResultId())) {
                continue;
            }
            forwarded.merge(retry.getResultId(), 1L, Long::sum);
            long due = retry.getDueAt();
            if (seen.record().timestamp() < due) {
                early.add(retry.getResultId() + " at " + seen.record().timestamp() + " < dueAt " + due);
            }
            maxLateMs = Math.max(maxLateMs, seen.readAtMs() - due);
        }
        Set<String> notForwarded = new TreeSet<>(tally.retried);
        notForwarded.removeAll(forwarded.keySet());
        Map<String, Long> forwardedTwice = forwarded.entrySet().stream().filter(e -> e.getValue() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
        Set<String> unexpected = new TreeSet<>(forwarded.keySet());
        unexpected.removeAll(tally.retried);
        figures.put("retries expected", tally.retried.size());
        figures.put("retries forwarded", forwarded.values().stream().mapToLong(Long::longValue).sum());
        figures.put("retries forwarded early", early.size());
        figures.put("retries max ms visible after due", maxLateMs);
        softly.assertThat(notForwarded).as("retries never forwarded to retry-ready").isEmpty();
        softly.assertThat(forwardedTwice).as("retries forwarded more than once").isEmpty();
        softly.assertThat(unexpected).as("retries forwarded that the generator did not expect").isEmpty();
        softly.assertThat(early).as("retries forwarded before their dueAt").isEmpty();

        Map<String, Long> dead = values(DEAD_LETTER, ClassifiedOutcome.class).stream()
                .map(ClassifiedOutcome::getResultId).filter(tally.outcomes::containsKey)
                .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        figures.put("dead letters expected", tally.deadLettered.size());
        figures.put("dead letters read", dead.values().stream().mapToLong(Long::longValue).sum());
        softly.assertThat(dead.keySet()).as("result ids dead-lettered").isEqualTo(new TreeSet<>(tally.deadLettered));
        softly.assertThat(dead.values()).as("each dead letter once").allMatch(n -> n == 1);

        Map<String, Long> compensations = values(COMPENSATIONS, ClassifiedOutcome.class).stream()
                .map(ClassifiedOutcome::getResultId).filter(tally.outcomes::containsKey)
                .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        figures.put("compensations expected", tally.compensated.size());
        figures.put("compensations read", compensations.values().stream().mapToLong(Long::longValue).sum());
        softly.assertThat(compensations.keySet()).as("result ids sent to compensations")
                .isEqualTo(new TreeSet<>(tally.compensated));
        softly.assertThat(compensations.values()).as("each compensation once").allMatch(n -> n == 1);
        return figures;
    }

    /** The last closed 1m and 1h windows of the load's hour against the tally's sums. */
    Map<String, Object> checkClosedWindows(Tally tally, SoftAssertions softly) {
        Map<String, Object> figures = new TreeMap<>();
        for (String topic : List.of(METRICS_1M, METRICS_1H)) {
            String size = topic.equals(METRICS_1M) ? "1m" : "1h";
            Map<String, Tally.Sums> expected = new TreeMap<>();
            tally.analytics.forEach((key, sums) -> {
                long start = Long.parseLong(key.split("\\|")[1]);
                if (key.startsWith(size + "|") && start < MixedLoad.LOAD_WINDOWS_END.toEpochMilli()) {
                    expected.put(key, sums);
                }
            });
            Map<String, List<AgentMetrics>> closed = new TreeMap<>();
            for (TopicWatcher.Seen seen : watcher.records(topic)) {
                AgentMetrics metrics = decode(seen, AgentMetrics.class);
                if (metrics.getWindowClosed() && metrics.getWindowStart() < MixedLoad.LOAD_WINDOWS_END.toEpochMilli()) {
                    closed.computeIfAbsent(new String(seen.record().key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                            .add(metrics);
                }
            }
            figures.put(size + " windows expected closed", expected.size());
            figures.put(size + " windows closed", closed.size());
            softly.assertThat(closed.keySet()).as("closed %s windows of the load", size).isEqualTo(expected.keySet());
            List<String> differences = new ArrayList<>();
            closed.forEach((key, records) -> {
                if (records.size() != 1) {
                    differences.add(key + " closed " + records.size() + " times");
                }
                Tally.Sums sums = expected.get(key);
                if (sums != null) {
                    String difference = difference(sums, records.get(records.size() - 1));
                    if (difference != null) {
                        differences.add(key + ": " + difference);
                    }
                }
            });
            figures.put(size + " windows different", differences.size());
            softly.assertThat(differences).as("closed %s windows that differ from the generator's sums", size).isEmpty();
        }
        return figures;
    }

    /** What differs between a window and the tally's sums, or null. */
    static String difference(Tally.Sums sums, AgentMetrics metrics) {
        Map<String, Long> completions = new TreeMap<>(metrics.getCompletions());
        List<String> wrong = new ArrayList<>();
        if (!completions.equals(sums.completions)) {
            wrong.add("completions " + completions + " != " + sums.completions);
        }
        compare(wrong, "inputTokens", metrics.getInputTokens(), sums.inputTokens);
        compare(wrong, "outputTokens", metrics.getOutputTokens(), sums.outputTokens);
        compare(wrong, "totalTokens", metrics.getTotalTokens(), sums.totalTokens);
        compare(wrong, "retries", metrics.getRetries(), sums.retries);
        if (metrics.getCostTotal().compareTo(sums.cost) != 0) {
            wrong.add("costTotal " + metrics.getCostTotal().toPlainString() + " != " + sums.cost.toPlainString());
        }
        return wrong.isEmpty() ? null : String.join(", ", wrong);
    }

    private static void compare(List<String> wrong, String field, long actual, long expected) {
        if (actual != expected) {
            wrong.add(field + " " + actual + " != " + expected);
        }
    }

    /**
     * {@code GET /analytics?window=total} by agent and by model against the tally's totals, polled until equal or the
     * timeout passes (partials reach the totals after a flush and a commit).
     */
    Map<String, Object> checkTotals(Tally tally, AppInstance app, Duration timeout, SoftAssertions softly)
            throws Exception {
        Map<String, Object> figures = new TreeMap<>();
        List<String> differences = List.of();
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            differences = new ArrayList<>();
            for (String by : List.of("agent", "model")) {
                differences.addAll(totalsDifferences(tally, app, by));
            }
            if (differences.isEmpty()) {
                break;
            }
            Thread.sleep(1_000);
        } while (System.nanoTime() < deadline);
        figures.put("totals different", differences.size());
        softly.assertThat(differences).as("running totals (/analytics?window=total) that differ from the generator's sums")
                .isEmpty();
        return figures;
    }

    private static List<String> totalsDifferences(Tally tally, AppInstance app, String by) throws Exception {
        Map<String, Tally.Sums> expected = new TreeMap<>();
        tally.analytics.forEach((key, sums) -> {
            String[] parts = key.split("\\|");
            if (parts[0].equals("total")) {
                Tally.Sums group = expected.computeIfAbsent(by.equals("agent") ? parts[2] : parts[3], k -> new Tally.Sums());
                sums.completions.forEach((type, n) -> group.completions.merge(type, n, Long::sum));
                group.inputTokens += sums.inputTokens;
                group.outputTokens += sums.outputTokens;
                group.totalTokens += sums.totalTokens;
                group.cost = group.cost.add(sums.cost);
                group.retries += sums.retries;
            }
        });
        HttpResponse<String> response = app.get("/analytics?window=total&by=" + by);
        if (response.statusCode() != 200) {
            return List.of("/analytics?window=total&by=" + by + " answered " + response.statusCode() + " " + response.body());
        }
        JsonNode answer = JSON.readTree(response.body());
        Map<String, JsonNode> actual = new TreeMap<>();
        answer.get("series").forEach(series -> actual.put(series.get("name").asText(), series.get("points").get(0)));
        List<String> differences = new ArrayList<>();
        if (!actual.keySet().equals(expected.keySet())) {
            differences.add("by " + by + ": groups " + actual.keySet() + " != " + expected.keySet());
        }
        expected.forEach((name, sums) -> {
            JsonNode point = actual.get(name);
            if (point == null) {
                return;
            }
            Map<String, Long> completions = new TreeMap<>();
            point.get("completions").properties().forEach(e -> completions.put(e.getKey(), e.getValue().asLong()));
            List<String> wrong = new ArrayList<>();
            if (!completions.equals(sums.completions)) {
                wrong.add("completions " + completions + " != " + sums.completions);
            }
            compare(wrong, "inputTokens", point.get("inputTokens").asLong(), sums.inputTokens);
            compare(wrong, "outputTokens", point.get("outputTokens").asLong(), sums.outputTokens);
            compare(wrong, "totalTokens", point.get("totalTokens").asLong(), sums.totalTokens);
            compare(wrong, "retries", point.get("retries").asLong(), sums.retries);
            BigDecimal cost = point.get("costTotal").decimalValue();
            if (cost.compareTo(sums.cost) != 0) {
                wrong.add("costTotal " + cost.toPlainString() + " != " + sums.cost.toPlainString());
            }
            if (!wrong.isEmpty()) {
                differences.add("by " + by + " " + name + ": " + String.join(", ", wrong));
            }
        });
        return differences;
    }

    /** The completed nodes of every job's latest state on the compacted replay-state topic (null: deleted). */
    Map<String, List<String>> latestReplayStates() {
        Map<String, List<String>> latest = new HashMap<>();
        for (TopicWatcher.Seen seen : watcher.records(REPLAY_STATE)) {
            JobReplayState state = decode(seen, JobReplayState.class);
            latest.put(new String(seen.record().key(), StandardCharsets.UTF_8),
                    state == null ? null : List.copyOf(state.getCompletedNodeIds()));
        }
        return latest;
    }

    /** The latest replay state of every job on the compacted topic against the tally's completed nodes. */
    Map<String, Object> checkReplayStates(Tally tally, SoftAssertions softly) {
        Map<String, List<String>> latest = latestReplayStates();
        Map<String, String> differences = new TreeMap<>();
        tally.completedNodes.forEach((job, nodes) -> {
            List<String> actual = latest.get(job);
            if (!List.copyOf(nodes).equals(actual)) {
                differences.put(job, actual + " (expected " + nodes + ")");
            }
        });
        Map<String, Object> figures = new TreeMap<>();
        figures.put("replay jobs expected", tally.completedNodes.size());
        figures.put("replay jobs different", differences.size());
        softly.assertThat(differences).as("jobs whose replay state differs from the generator's completed nodes").isEmpty();
        return figures;
    }

    /** Waits until the replay states are as expected (or the timeout passes): the topic is the last thing written. */
    boolean awaitReplayStates(Tally tally, Duration timeout) throws InterruptedException {
        return watcher.await(seen -> {
            SoftAssertions probe = new SoftAssertions();
            checkReplayStates(tally, probe);
            return probe.errorsCollected().isEmpty();
        }, timeout, Duration.ZERO);
    }

    /** Waits until every expected window of the load's hour has its closed record (or the timeout passes). */
    boolean awaitClosedWindows(Tally tally, Duration timeout) throws InterruptedException {
        return watcher.await(seen -> {
            SoftAssertions probe = new SoftAssertions();
            Map<String, Object> figures = checkClosedWindows(tally, probe);
            return figures.get("1m windows closed").equals(figures.get("1m windows expected closed"))
                    && figures.get("1h windows closed").equals(figures.get("1h windows expected closed"));
        }, timeout, Duration.ofSeconds(2));
    }

    /**
     * The end of every scenario: waits for an outcome of every input, then sends the clock records (after a pause, so
     * every partial of the load is flushed first) and waits for the windows to close; then checks everything against
     * the tally, querying totals from {@code queried}.
     */
    Map<String, Object> finishAndCheck(MixedLoad load, LoadProducer producer, AppInstance queried, SoftAssertions softly)
            throws Exception {
        Map<String, Object> figures = new TreeMap<>();
        long begin = System.nanoTime();
        boolean all = awaitOutcomes(load.tally(), Duration.ofSeconds(90));
        figures.put("every input classified before the clock", all);
        Thread.sleep(3_000);
        producer.send(load.clock());
        producer.flush();
        awaitOutcomes(load.tally(), Duration.ofSeconds(30));
        awaitClosedWindows(load.tally(), Duration.ofSeconds(45));
        awaitReplayStates(load.tally(), Duration.ofSeconds(15));
        figures.put("records produced", producer.sent());
        figures.put("records acknowledged", producer.acked());
        softly.assertThat(producer.failures()).as("sends that failed").isEmpty();
        figures.putAll(checkOutcomesAndRetries(load.tally(), softly));
        figures.putAll(checkClosedWindows(load.tally(), softly));
        figures.putAll(checkReplayStates(load.tally(), softly));
        figures.putAll(checkTotals(load.tally(), queried, Duration.ofSeconds(15), softly));
        figures.put("verification s", String.format("%.1f", (System.nanoTime() - begin) / 1e9));
        return figures;
    }
}
