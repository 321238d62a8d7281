package io.agentoutcomes.app.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Kafka metrics as Prometheus series, at both details, from a Kafka {@link Metrics} registry of made-up metrics. */
class KafkaStreamsMetersTest {
    private static final String STATE = "stream-state-metrics";
    private static final String FETCH = "consumer-fetch-manager-metrics";

    private final Metrics kafka = new Metrics();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @AfterEach
    void close() {
        kafka.close();
        registry.close();
    }

    @Test
    void inMemoryAndRocksDbStoresOfOneMetricAreBothExportedUnderOneStoreLabel() {
        gauge(STATE, "commit-rate", 2.0, "thread-id", "t1", "task-id", "0_0", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "commit-rate", 3.0, "thread-id", "t1", "task-id", "0_1", "in-memory-state-id", "analytics-sources");

        new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.FULL).refresh();

        assertThat(lines("kafka_stream_state_commit_rate{")).containsExactlyInAnyOrder(
                "kafka_stream_state_commit_rate{state_id=\"analytics-sources\",task_id=\"0_1\",thread_id=\"t1\"} 3.0",
                "kafka_stream_state_commit_rate{state_id=\"retry-pending\",task_id=\"0_0\",thread_id=\"t1\"} 2.0");
    }

    @Test
    void atSummaryDetailTasksStoresAndPartitionsAreFoldedByTheMetricsKind() {
        gauge(STATE, "commit-rate", 2.0, "thread-id", "t1", "task-id", "0_0", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "commit-rate", 3.0, "thread-id", "t1", "task-id", "0_1", "in-memory-state-id", "analytics-sources");
        gauge(STATE, "put-latency-max", 40.0, "thread-id", "t1", "task-id", "0_0", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "put-latency-max", Double.NaN, "thread-id", "t1", "task-id", "0_1", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "put-latency-max", 25.0, "thread-id", "t1", "task-id", "0_2", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "put-latency-avg", 10.0, "thread-id", "t1", "task-id", "0_0", "rocksdb-state-id", "retry-pending");
        gauge(STATE, "put-latency-avg", 20.0, "thread-id", "t1", "task-id", "0_1", "rocksdb-state-id", "retry-pending");
        gauge(FETCH, "records-lag", 5.0, "client-id", "c", "topic", "results", "partition", "0");
        gauge(FETCH, "records-lag", 7.0, "client-id", "c", "topic", "results", "partition", "1");
        gauge(FETCH, "records-lead-min", 100.0, "client-id", "c", "topic", "results", "partition", "0");
        gauge(FETCH, "records-lead-min", 90.0, "client-id", "c", "topic", "results", "partition", "1");

        new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.SUMMARY).refresh();

        assertThat(lines("kafka_stream_state_")).containsExactlyInAnyOrder(
                "kafka_stream_state_commit_rate{thread_id=\"t1\"} 5.0",
                "kafka_stream_state_put_latency_max{thread_id=\"t1\"} 40.0",
                "kafka_stream_state_put_latency_avg{thread_id=\"t1\"} 15.0");
        // a client's topics are folded too
        assertThat(lines("kafka_consumer_fetch_manager_records_")).containsExactlyInAnyOrder(
                "kafka_consumer_fetch_manager_records_lag{client_id=\"c\"} 12.0",
                "kafka_consumer_fetch_manager_records_lead_min{client_id=\"c\"} 90.0");
    }

    @Test
    void onlyTheDeepestSeriesOfANameAreExportedAsMicrometersBinderDoes() {
        gauge(FETCH, "records-lag-max", 9.0, "client-id", "c");
        gauge(FETCH, "records-lag-max", 4.0, "client-id", "c", "topic", "results", "partition", "0");
        gauge(FETCH, "records-lag-max", 9.0, "client-id", "c", "topic", "retries", "partition", "0");

        new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.FULL).refresh();

        assertThat(lines("kafka_consumer_fetch_manager_records_lag_max")).containsExactlyInAnyOrder(
                "kafka_consumer_fetch_manager_records_lag_max{client_id=\"c\",partition=\"0\",topic=\"results\"} 4.0",
                "kafka_consumer_fetch_manager_records_lag_max{client_id=\"c\",partition=\"0\",topic=\"retries\"} 9.0");
    }

    @Test
    void aClientsOwnSeriesIsLeftOutBesideItsTopicsSoAFoldedSumCountsNothingTwice() {
        gauge(FETCH, "bytes-consumed-total", 30.0, "client-id", "c");
        gauge(FETCH, "bytes-consumed-total", 10.0, "client-id", "c", "topic", "results");
        gauge(FETCH, "bytes-consumed-total", 20.0, "client-id", "c", "topic", "retries");

        new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.SUMMARY).refresh();

        assertThat(lines("kafka_consumer_fetch_manager_bytes_consumed")).containsExactly(
                "kafka_consumer_fetch_manager_bytes_consumed_total{client_id=\"c\"} 30.0");
    }

    @Test
    void taskCreatedTotalIsExportedUnderANamePrometheusAccepts() {
        Sensor created = kafka.sensor("created");
        created.add(kafka.metricName("task-created-total", "stream-thread-metrics", "", Map.of("thread-id", "t1")),
                new CumulativeSum());
        created.record(4);

        new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.SUMMARY).refresh();

        assertThat(lines("kafka_stream_thread_task_creations_total")).containsExactly(
                "kafka_stream_thread_task_creations_total{thread_id=\"t1\"} 4.0");
    }

    @Test
    void totalsAreCountersAndSeriesOfMetricsGoneAreRemovedOnTheNextRefresh() {
        Sensor produced = kafka.sensor("produced");
        MetricName total = kafka.metricName("records-produced-total", "stream-topic-metrics", "",
                Map.of("thread-id", "t1", "task-id", "0_0", "processor-node-id", "sink", "topic", "out"));
        produced.add(total, new CumulativeSum());
        produced.record(3);
        KafkaStreamsMeters meters = new KafkaStreamsMeters(registry, kafka::metrics, KafkaMetricsDetail.SUMMARY);
        meters.refresh();
        assertThat(registry.scrape()).contains("# TYPE kafka_stream_topic_records_produced_total counter");
        assertThat(lines("kafka_stream_topic_records_produced_total")).containsExactly(
                "kafka_stream_topic_records_produced_total{thread_id=\"t1\",topic=\"out\"} 3.0");

        kafka.removeMetric(total);
        meters.refresh();

        assertThat(lines("kafka_stream_topic_records_produced_total")).isEmpty();
        assertThat(meters.seriesCount()).isEqualTo(1); // Metrics' own count of its metrics
    }

    private void gauge(String group, String name, double value, String... tags) {
        Map<String, String> tagMap = new LinkedHashMap<>();
        for (int i = 0; i < tags.length; i += 2) {
            tagMap.put(tags[i], tags[i + 1]);
        }
        // a Kafka Gauge, not a Measurable, as the consumer's fetch metrics are
        kafka.addMetric(kafka.metricName(name, group, "", tagMap), (Gauge<Double>) (config, now) -> value);
    }

    private List<String> lines(String start) {
        return Arrays.stream(registry.scrape().split("\n")).filter(line -> line.startsWith(start)).toList();
    }
}
