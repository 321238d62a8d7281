package io.agentoutcomes.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;

/**
 * Kafka Streams' metrics (its own and its clients', {@code KafkaStreams#metrics()}) as meters, named as Micrometer's
 * Kafka binder names them ({@code kafka.<group without -metrics>.<name>}: {@code kafka_stream_state_put_rate}), read
 * afresh on every scrape ({@link #refresh}: meters of new tasks, stores and partitions added, those gone removed).
 *
 * <p>At {@link KafkaMetricsDetail#SUMMARY} (the default) the series of one name that differ only in a task, a store, a
 * processor node or a partition (and, of the clients' metrics, a topic) are one series, folded by {@link Fold}; at {@link KafkaMetricsDetail#FULL} each is its
 * own, the store's tag being {@code state_id} whatever the store's kind (Kafka names it {@code rocksdb_state_id},
 * {@code in_memory_state_id}, ...: one name must have one set of label names, or Prometheus' registry refuses all but
 * the first kind). Where one name is kept at different depths (a client's {@code records-lag-max} and each
 * partition's), only the deepest series are exported, as Micrometer's binder does. {@code task-created-total} is
 * {@code kafka_stream_thread_task_creations_total}: Prometheus reserves the suffix {@code _created}. Metrics whose value is not a number
 * ({@code version}, {@code topology-description}) are no meters.
 */
public final class KafkaStreamsMeters {
    private final MeterRegistry registry;
    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final KafkaMetricsDetail detail;
    private final Map<Series, Exported> exported = new HashMap<>();
    private final Set<MetricName> notNumbers = new HashSet<>();

    /** One exported series: its name and tags after folding. */
    private record Series(String name, Map<String, String> tags) {
    }

    /** A series' meter and the Kafka metrics it is read from. */
    private static final class Exported {
        final Fold fold;
        volatile List<Metric> members;
        Meter meter;

        Exported(Fold fold, List<Metric> members) {
            this.fold = fold;
            this.members = members;
        }

        double value() {
            return fold.of(members);
        }
    }

    public KafkaStreamsMeters(MeterRegistry registry, Supplier<Map<MetricName, ? extends Metric>> metrics,
                              KafkaMetricsDetail detail) {
        this.registry = registry;
        this.metrics = metrics;
        this.detail = detail;
    }

    /** Brings the meters in line with Kafka Streams' metrics now; call before a scrape. */
    public synchronized void refresh() {
        Map<MetricName, Metric> numbers = new HashMap<>();
        Map<String, Set<String>> deepest = new HashMap<>();
        metrics.get().forEach((name, metric) -> {
            if (isNumber(name, metric)) {
                numbers.put(name, metric);
                // a name kept at several depths (a client's and each partition's): only the deepest, before folding
                deepest.merge(meterName(name), KafkaMetricsDetail.FULL.tags(name).keySet(), (kept, keys) ->
                        keys.size() > kept.size() || keys.size() == kept.size()
                                && String.join(",", keys).compareTo(String.join(",", kept)) < 0 ? keys : kept);
            }
        });
        Map<Series, List<Metric>> now = new HashMap<>();
        Map<Series, Fold> folds = new HashMap<>();
        numbers.forEach((name, metric) -> {
            String meter = meterName(name);
            if (KafkaMetricsDetail.FULL.tags(name).keySet().equals(deepest.get(meter))) {
                Series series = new Series(meter, detail.tags(name));
                now.computeIfAbsent(series, s -> new ArrayList<>()).add(metric);
                folds.putIfAbsent(series, Fold.of(name.name()));
            }
        });
        exported.entrySet().removeIf(entry -> {
            boolean gone = !now.containsKey(entry.getKey());
            if (gone) {
                registry.remove(entry.getValue().meter);
            }
            return gone;
        });
        now.forEach((series, members) -> {
            Exported known = exported.get(series);
            if (known != null) {
                known.members = List.copyOf(members);
                return;
            }
            Exported added = new Exported(folds.get(series), List.copyOf(members));
            added.meter = register(series, added, isCounter(members.get(0)));
            exported.put(series, added);
        });
    }

    /** How many series are exported (for a test). */
    synchronized int seriesCount() {
        return exported.size();
    }

    private Meter register(Series series, Exported values, boolean counter) {
        Tags tags = Tags.of(series.tags().entrySet().stream()
                .map(tag -> Tag.of(tag.getKey(), tag.getValue())).toList());
        if (counter) {
            return FunctionCounter.builder(series.name(), values, Exported::value).tags(tags).register(registry);
        }
        return Gauge.builder(series.name(), values, Exported::value).tags(tags).register(registry);
    }

    /** Whether a metric's value is a number, asked once per metric (a RocksDB property is read on every ask). */
    private boolean isNumber(MetricName name, Metric metric) {
        if (notNumbers.contains(name)) {
            return false;
        }
        if (metric.metricValue() instanceof Number) {
            return true;
        }
        notNumbers.add(name);
        return false;
    }

    private static boolean isCounter(Metric metric) {
        if (metric.metricName().name().endsWith("-total")) {
            return true;
        }
        return metric instanceof KafkaMetric kafka && kafka.isMeasurable()
                && (kafka.measurable() instanceof CumulativeSum || kafka.measurable() instanceof CumulativeCount);
    }

    /** As Micrometer's Kafka binder: {@code consumer-fetch-manager-metrics} {@code records-lag-max} is {@code kafka.consumer.fetch.manager.records.lag.max}. */
    static String meterName(MetricName name) {
        String meter = ("kafka." + name.group().replaceFirst("-metrics$", "") + "." + name.name()).replace('-', '.');
        // Prometheus reserves the suffix _created (a counter's creation time): task-created-total was never exported
        return meter.endsWith(".created.total") ? meter.replace(".created.total", ".creations.total") : meter;
    }
}
