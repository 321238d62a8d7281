package io.agentoutcomes.topology.analytics;

import static io.agentoutcomes.topology.StageDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.Cost;
import io.agentoutcomes.avro.CostSource;
import io.agentoutcomes.avro.ErrorInfo;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.Failure;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import io.agentoutcomes.topology.AgentOutcomesTopology;
import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.StageDriver;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The analytics over the whole pipeline, agent results in: local partials flushed by the wall clock, windows closed by
 * the tasks' progress in event time, which never runs ahead of the wall clock.
 */
class AnalyticsTopologyTest {
    private final StageDriver pipeline = StageDriver.configured((topics, settings) -> AgentOutcomesTopology.build(topics,
            PipelineSettings.builder().analytics(new AnalyticsSettings(Duration.ofSeconds(1), Duration.ofSeconds(60), 1000,
                    true)).build(), settings),
            topics -> new Properties());
    private final TopologyTestDriver driver = pipeline.driver;
    private final TestInputTopic<String, AgentResult> results = pipeline.input(pipeline.topics.agentResults);
    private final TestOutputTopic<String, AgentMetrics> minutes = pipeline.output(pipeline.topics.agentMetrics1m);
    private final TestOutputTopic<String, AgentMetrics> hours = pipeline.output(pipeline.topics.agentMetrics1h);
    private int sequence;

    @AfterEach
    void close() {
        pipeline.close();
    }

    private void publish(Instant at, boolean success, String cost, long inputTokens, long durationMs) {
        String id = "r-" + sequence++;
        AgentResult result = AgentResult.newBuilder().setResultId(id).setAgentId("summarizer").setTaskId("task-" + id)
                .setExecution(ExecutionMetadata.newBuilder().setModel("gpt-4o-mini").setProvider("openai")
                        .setDurationMs(durationMs).setUsage(Usage.newBuilder().setInputTokens(inputTokens).setOutputTokens(10L).build())
                        .setCost(Cost.newBuilder().setTotal(Money.toBytes(new BigDecimal(cost).setScale(12))).setSource(CostSource.REPORTED).build())
                        .build())
                .setOutcome(success ? Success.newBuilder().build()
                        : Failure.newBuilder().setError(ErrorInfo.newBuilder().setCode("llm-refusal").build()).build())
                .build();
        results.pipeInput(result.getTaskId(), result, at);
    }

    private static String key(String size, Instant start) {
        return size + "|" + String.format("%013d", start.toEpochMilli()) + "|summarizer|gpt-4o-mini|openai|unknown";
    }

    @Test
    void windowsAggregateExactlyALateRecordInsideGraceUpdatesItsWindowAndClosedWindowsSaySo() {
        publish(T0.plusSeconds(5), true, "0.0000001", 100, 200);
        publish(T0.plusSeconds(20), false, "0.0000002", 50, 400);
        driver.advanceWallClockTime(Duration.ofSeconds(1));

        List<KeyValue<String, AgentMetrics>> first = minutes.readKeyValuesToList();
        assertThat(first).hasSize(1);
        AgentMetrics window = first.get(0).value;
        assertThat(first.get(0).key).isEqualTo(key("1m", T0));
        assertThat(window.getWindowStart()).isEqualTo(T0.toEpochMilli());
        assertThat(window.getWindowEnd()).isEqualTo(T0.plusSeconds(60).toEpochMilli());
        assertThat(window.getWindowClosed()).isFalse();
        assertThat(window.getCompletions()).isEqualTo(Map.of("SUCCESS", 1L, "PERMANENT_FAILURE", 1L));
        assertThat(window.getCostTotal()).isEqualTo(new BigDecimal("0.000000300000"));
        assertThat(window.getInputTokens()).isEqualTo(150);
        assertThat(window.getTotalTokens()).isEqualTo(170);
        assertThat(window.getDeadLetters()).isEqualTo(Map.of("ERROR", 1L));
        assertThat(window.getDurationCount()).isEqualTo(2);
        assertThat(hours.readKeyValuesToList()).extracting(kv -> kv.key).containsExactly(key("1h", T0));

        publish(T0.plusSeconds(70), true, "0.000001", 1, 10);
        publish(T0.plusSeconds(30), true, "0.0000004", 1, 10);
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        List<KeyValue<String, AgentMetrics>> updated = minutes.readKeyValuesToList();
        assertThat(updated).extracting(kv -> kv.key).containsExactlyInAnyOrder(key("1m", T0), key("1m", T0.plusSeconds(60)));
        AgentMetrics late = updated.stream().filter(kv -> kv.key.equals(key("1m", T0))).findFirst().orElseThrow().value;
        assertThat(late.getCostTotal()).isEqualTo(new BigDecimal("0.000000700000"));
        assertThat(late.getCompletions()).isEqualTo(Map.of("SUCCESS", 2L, "PERMANENT_FAILURE", 1L));
        assertThat(late.getWindowClosed()).isFalse();

        // two minutes on, on the wall clock too: a task's progress never runs ahead of it
        driver.advanceWallClockTime(Duration.ofMinutes(2));
        publish(T0.plusSeconds(125), true, "0.000001", 1, 10);
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        publish(T0.plusSeconds(126), true, "0.000001", 1, 10);
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        List<KeyValue<String, AgentMetrics>> closing = minutes.readKeyValuesToList();
        AgentMetrics closed = closing.stream().filter(kv -> kv.key.equals(key("1m", T0)) && kv.value.getWindowClosed())
                .findFirst().orElseThrow().value;
        assertThat(closed.getCostTotal()).isEqualTo(new BigDecimal("0.000000700000"));
        assertThat(closed.getDurationP50Ms()).isNotNull();

        publish(T0.plusSeconds(10), true, "5", 1, 10);
        driver.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(minutes.readKeyValuesToList()).extracting(kv -> kv.key).doesNotContain(key("1m", T0));
    }

    @Test
    void aWindowWhoseRecordsArrivedInTimeKeepsThemWhenTheSameFlushCarriesAMuchLaterWindow() {
        driver.advanceWallClockTime(Duration.ofSeconds(200));
        publish(T0.plusSeconds(5), true, "0.25", 100, 200);
        publish(T0.plusSeconds(200), true, "0.5", 10, 200);
        driver.advanceWallClockTime(Duration.ofSeconds(1));

        List<KeyValue<String, AgentMetrics>> windows = minutes.readKeyValuesToList();
        // each window as merged, then the first once more, closed: the task's progress (3:20) is past its end and grace
        assertThat(windows).extracting(kv -> kv.key, kv -> kv.value.getWindowClosed()).containsExactly(
                Tuple.tuple(key("1m", T0), false),
                Tuple.tuple(key("1m", T0.plusSeconds(180)), false),
                Tuple.tuple(key("1m", T0), true));
        assertThat(windows.get(0).value.getCostTotal()).isEqualTo(new BigDecimal("0.250000000000"));
        assertThat(windows.get(0).value.getInputTokens()).isEqualTo(100);
        assertThat(windows.get(1).value.getCostTotal()).isEqualTo(new BigDecimal("0.500000000000"));
        assertThat(windows.get(2).value.getCostTotal()).isEqualTo(new BigDecimal("0.250000000000"));
    }

    @Test
    void aBacklogSpanningManyWindowsAfterDowntimeIsAggregatedWhole() {
        // back after half an hour's downtime: the backlog is in the wall clock's past
        driver.advanceWallClockTime(Duration.ofMinutes(30));
        for (int minute = 0; minute < 30; minute++) {
            publish(T0.plusSeconds(60L * minute + 1), true, "0.01", 1, 10);
        }
        driver.advanceWallClockTime(Duration.ofSeconds(1));

        List<KeyValue<String, AgentMetrics>> windows = minutes.readKeyValuesToList();
        // 30 windows merged, and the 28 whose end plus grace the task's progress (29:01) is past published closed
        assertThat(windows).filteredOn(kv -> !kv.value.getWindowClosed()).hasSize(30);
        assertThat(windows).filteredOn(kv -> kv.value.getWindowClosed()).extracting(kv -> kv.key)
                .containsExactlyElementsOf(IntStream.range(0, 28)
                        .mapToObj(minute -> key("1m", T0.plusSeconds(60L * minute))).toList());
        assertThat(windows).allSatisfy(kv -> assertThat(kv.value.getCostTotal()).isEqualTo(new BigDecimal("0.010000000000")));
        assertThat(hours.readKeyValuesToList()).extracting(kv -> kv.value.getCostTotal())
                .containsExactly(new BigDecimal("0.300000000000"));
    }
}
