package io.agentoutcomes.app.faults;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.TopicNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Issue 29's skewed clock, a case of the hostile corpus: one result stamped {@link #AHEAD} ahead of the wall clock (a
 * broker takes up to an hour), then, once every source of partials has flushed and reported, {@link #ON_TIME} results
 * stamped now from as many agents. The skewed one is classified at the time it was read, its stamp kept in
 * {@code producer-timestamp}; each on-time one is in its agent's 1-minute and 1-hour windows. Before the clock bound its
 * progress closed those windows, and all of them were dropped as late.
 */
final class SkewedClockCase {
    static final String NAME = "skewed-clock";
    static final Duration AHEAD = Duration.ofMinutes(55);
    static final int ON_TIME = 40;
    /** Between the skewed record and the rest: every source flushes (1 s) and reports, and goes idle. */
    static final Duration SETTLE = Duration.ofSeconds(5);
    private static final String SUCCESS = "{\"status\":\"success\",\"data\":{}}";

    /**
     * What must come of it: the skewed task's one outcome, stamped more than the clock skew (5 min) before
     * {@code producerStamp} and saying it, and each agent of {@code onTime} once in its windows of {@code onTimeAt}.
     */
    record Expected(String skewedTask, long producerStamp, List<String> onTime, long onTimeAt)
            implements HostileCase.Expectation {
    }

    private SkewedClockCase() {
    }

    /** The case at wall-clock time {@code now}: the skewed record first, then the on-time ones. */
    static HostileCase create(long now) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        String skewedTask = HostileCase.task(NAME);
        long stamp = now + AHEAD.toMillis();
        records.add(MixedLoad.json(TopicNames.AGENT_RESULTS_JSON, skewedTask, stamp, SUCCESS, HeaderNames.AGENT_ID,
                "hostile-skewed-agent"));
        List<String> agents = new ArrayList<>();
        for (int i = 0; i < ON_TIME; i++) {
            String agent = "hostile-on-time-" + i;
            agents.add(agent);
            records.add(MixedLoad.json(TopicNames.AGENT_RESULTS_JSON, skewedTask + "-" + i, now, SUCCESS,
                    HeaderNames.AGENT_ID, agent));
        }
        return new HostileCase(NAME, records, new Expected(skewedTask, stamp, agents, now));
    }

    /** Sends the skewed record, waits {@link #SETTLE}, then the rest, as the harness did. */
    static void send(LoadProducer producer, HostileCase skewed) throws InterruptedException {
        producer.send(skewed.records().subList(0, 1));
        producer.flush();
        Thread.sleep(SETTLE.toMillis());
        producer.send(skewed.records().subList(1, skewed.records().size()));
        producer.flush();
    }

    /** {@code agent_outcomes_input_timestamps_clamped_total} as the service's {@code /metrics} says (-1: not there). */
    static double clampedOnMetrics(AppInstance app) throws IOException, InterruptedException {
        return app.get("/metrics").body().lines().filter(line -> line.startsWith("agent_outcomes_input_timestamps_clamped_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst().orElse(-1);
    }

    /** What is wrong with where the case's records landed; null when nothing. */
    static String problem(Expected expected, PipelineChecks checks, TopicWatcher watcher) {
        List<String> bad = new ArrayList<>();
        List<TopicWatcher.Seen> skewed = watcher.records(PipelineChecks.OUTCOMES).stream()
                .filter(s -> expected.skewedTask().equals(checks.decode(s, ClassifiedOutcome.class).getTaskId())).toList();
        if (skewed.size() != 1) {
            bad.add("expected 1 outcome of the skewed result, found " + skewed.size());
        } else {
            long at = skewed.get(0).record().timestamp();
            Header stamp = skewed.get(0).record().headers().lastHeader(HeaderNames.PRODUCER_TIMESTAMP);
            String said = stamp == null ? null : new String(stamp.value(), StandardCharsets.UTF_8);
            if (at > expected.producerStamp() - Duration.ofMinutes(5).toMillis()) {
                bad.add("the skewed outcome is stamped " + Instant.ofEpochMilli(at) + ", its producer's time");
            }
            if (!Instant.ofEpochMilli(expected.producerStamp()).toString().equals(said)) {
                bad.add("the skewed outcome's " + HeaderNames.PRODUCER_TIMESTAMP + " is " + said);
            }
        }
        for (String topic : List.of(PipelineChecks.METRICS_1M, PipelineChecks.METRICS_1H)) {
            long size = topic.equals(PipelineChecks.METRICS_1M) ? 60_000 : 3_600_000;
            long start = expected.onTimeAt() - Math.floorMod(expected.onTimeAt(), size);
            Map<String, Long> completions = new HashMap<>();
            for (AgentMetrics window : checks.values(topic, AgentMetrics.class)) {
                if (window.getWindowStart() != null && window.getWindowStart() == start) {
                    completions.put(window.getAgentId(), window.getCompletions().values().stream().mapToLong(Long::longValue).sum());
                }
            }
            List<String> missing = expected.onTime().stream().filter(a -> completions.getOrDefault(a, 0L) != 1L).toList();
            if (!missing.isEmpty()) {
                bad.add(missing.size() + " of " + expected.onTime().size() + " on-time results not in their " + topic
                        + " window of " + Instant.ofEpochMilli(start));
            }
        }
        return bad.isEmpty() ? null : String.join("; ", bad);
    }
}
