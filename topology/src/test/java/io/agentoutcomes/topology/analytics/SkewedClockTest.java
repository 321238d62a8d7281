package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.HeaderNames;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.topology.StageDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 29, item 1: one record from a skewed clock must not empty everyone's windows. The whole pipeline at its
 * default settings (5 minutes' clock skew, 1 s flushes, 60 s grace); the wall clock is 12:10, records are read as they
 * come.
 */
class SkewedClockTest {
    private static final Instant NOW = T0.plus(Duration.ofMinutes(10));
    private static final int AGENTS = 40;
    private static final String ANALYTICS = "stream-agent-outcomes-analytics-metrics";
    private static final String INGEST = "stream-agent-outcomes-ingest-metrics";

    private final StageDriver pipeline = StageDriver.pipeline();
    private final TestInputTopic<String, AgentResult> results = pipeline.input(pipeline.topics.agentResults);
    private final TestInputTopic<byte[], byte[]> json = pipeline.bytesInput(pipeline.topics.agentResultsJson.name());
    private final TestOutputTopic<String, AgentResult> canonical = pipeline.output(pipeline.topics.agentResults);
    private final TestOutputTopic<String, ClassifiedOutcome> outcomes = pipeline.output(pipeline.topics.outcomesClassified);
    private final TestOutputTopic<String, AgentMetrics> minutes = pipeline.output(pipeline.topics.agentMetrics1m);
    private final TestOutputTopic<String, AgentMetrics> hours = pipeline.output(pipeline.topics.agentMetrics1h);

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void publish(String agent, Instant at) {
        AgentResult result = AgentResult.newBuilder().setResultId("r-" + agent).setAgentId(agent).setTaskId("task-" + agent)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai").build())
                .setOutcome(Success.newBuilder().build()).build();
        results.pipeInput(result.getTaskId(), result, at);
    }

    private static String key(String size, Instant start, String agent) {
        return size + "|" + String.format("%013d", start.toEpochMilli()) + "|" + agent + "|gpt-4o-mini|openai|unknown";
    }

    /** Every window as last published, by key. */
    private static Map<String, AgentMetrics> latest(TestOutputTopic<String, AgentMetrics> topic) {
        Map<String, AgentMetrics> latest = new HashMap<>();
        topic.readKeyValuesToList().forEach(kv -> latest.put(kv.key, kv.value));
        return latest;
    }

    private static String header(TestRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The wall clock moved on to {@code to}; then one record there closes what its end and grace are past. */
    private void closeUpTo(Instant to) {
        pipeline.advance(Duration.between(NOW, to).minus(Duration.ofSeconds(2)));
        publish("clock", to);
        pipeline.advance(Duration.ofSeconds(1));
    }

    @Test
    void oneResultStamped55MinutesAheadLeavesEveryResultReadOnTimeInItsWindows() {
        pipeline.advance(Duration.between(T0, NOW));
        Instant skewed = NOW.plus(Duration.ofMinutes(55));
        publish("skewed", skewed);
        pipeline.advance(Duration.ofSeconds(1));
        IntStream.range(0, AGENTS).forEach(i -> publish("agent-" + i, NOW.plusMillis(10L * i)));
        pipeline.advance(Duration.ofSeconds(1));
        closeUpTo(NOW.plus(Duration.ofMinutes(55)));

        assertThat(pipeline.metric(ANALYTICS, "late-partials-dropped-total")).isZero();
        Map<String, AgentMetrics> minute = latest(minutes);
        Map<String, AgentMetrics> hour = latest(hours);
        for (int i = 0; i < AGENTS; i++) {
            for (AgentMetrics window : List.of(minute.get(key("1m", NOW, "agent-" + i)), hour.get(key("1h", T0, "agent-" + i)))) {
                assertThat(window).as("agent-" + i).isNotNull();
                assertThat(window.getCompletions()).as("agent-" + i).isEqualTo(Map.of("SUCCESS", 1L));
                assertThat(window.getWindowClosed()).as("agent-" + i).isTrue();
            }
        }
        // the skewed result: counted, at the time it was read, its producer's stamp kept on its outcome
        assertThat(pipeline.metric(INGEST, "timestamps-clamped-total")).isEqualTo(1.0);
        assertThat(minute.get(key("1m", NOW, "skewed")).getCompletions()).isEqualTo(Map.of("SUCCESS", 1L));
        assertThat(minute).doesNotContainKey(key("1m", skewed.minusSeconds(skewed.getEpochSecond() % 60), "skewed"));
        TestRecord<String, ClassifiedOutcome> outcome = outcomes.readRecordsToList().stream()
                .filter(r -> r.value().getAgentId().equals("skewed")).findFirst().orElseThrow();
        assertThat(outcome.timestamp()).isEqualTo(NOW.toEpochMilli());
        assertThat(header(outcome, HeaderNames.PRODUCER_TIMESTAMP)).isEqualTo("2026-03-01T13:05:00Z");
    }

    @Test
    void aResultAheadWithinTheSkewKeepsItsTimeAndClosesNobodysWindow() {
        pipeline.advance(Duration.between(T0, NOW));
        Instant ahead = NOW.plus(Duration.ofMinutes(4));
        publish("ahead", ahead);
        pipeline.advance(Duration.ofSeconds(1));
        IntStream.range(0, AGENTS).forEach(i -> publish("agent-" + i, NOW.plusMillis(10L * i)));
        pipeline.advance(Duration.ofSeconds(1));

        assertThat(pipeline.metric(ANALYTICS, "late-partials-dropped-total")).isZero();
        assertThat(pipeline.metric(INGEST, "timestamps-clamped-total")).isZero();
        Map<String, AgentMetrics> minute = latest(minutes);
        IntStream.range(0, AGENTS).forEach(i -> assertThat(minute.get(key("1m", NOW, "agent-" + i)).getCompletions())
                .as("agent-" + i).isEqualTo(Map.of("SUCCESS", 1L)));
        assertThat(minute.get(key("1m", ahead, "ahead")).getCompletions()).isEqualTo(Map.of("SUCCESS", 1L));
        assertThat(minute.values()).noneMatch(AgentMetrics::getWindowClosed);
        TestRecord<String, ClassifiedOutcome> outcome = outcomes.readRecordsToList().get(0);
        assertThat(outcome.timestamp()).isEqualTo(ahead.toEpochMilli());
        assertThat(header(outcome, HeaderNames.PRODUCER_TIMESTAMP)).isNull();
    }

    @Test
    void aJsonResultStampedBeyondTheSkewIsWrittenCanonicalAtTheTimeItWasRead() {
        pipeline.advance(Duration.between(T0, NOW));
        json.pipeInput(StageDriver.textRecord("task-json", "{\"status\":\"success\",\"data\":{}}",
                StageDriver.headers(HeaderNames.AGENT_ID, "json-agent", HeaderNames.PRODUCER_TIMESTAMP, "forged"),
                NOW.plus(Duration.ofMinutes(30))));

        TestRecord<String, AgentResult> written = canonical.readRecord();
        assertThat(written.timestamp()).isEqualTo(NOW.toEpochMilli());
        assertThat(header(written, HeaderNames.PRODUCER_TIMESTAMP)).isEqualTo("2026-03-01T12:40:00Z");
        assertThat(written.headers().headers(HeaderNames.PRODUCER_TIMESTAMP)).hasSize(1);
        assertThat(pipeline.metricTotal(INGEST, "timestamps-clamped-total", "agent-outcomes-ingest-id",
                pipeline.topics.agentResultsJson.name())).isEqualTo(1.0);
    }
}
