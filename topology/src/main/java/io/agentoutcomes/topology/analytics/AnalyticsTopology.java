package io.agentoutcomes.topology.analytics;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.topic.Topics;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Cost, token and retry analytics per agent, model and provider, in tumbling windows of 1 minute and 1 hour and as
 * running totals. Aggregated locally first: each task folds its outcomes into partial aggregates in memory
 * ({@link PartialAggregatesStore}, written to its changelog inside each commit's transaction), and flushes them every
 * {@code flushInterval}, each stamped with its window's start, through one repartition topic, keyed by window,
 * agent, model and provider, to the task that owns that key; so the repartition costs a write and a read per key and
 * flush, not per record. There the partials are merged into the window's aggregate, which is published to
 * {@code agent-metrics-1m} / {@code agent-metrics-1h} on every change and once more, marked closed, when every task
 * that may still send partials for it is past its end plus the grace period ({@link SourceProgress}); a partial for a
 * window already closed is dropped and counted. The store
 * {@value WindowMerger#WINDOWS_STORE} keeps running totals (size {@code total}) and closed windows for a while (1m windows two
 * hours, 1h windows seven days), for queries and the dashboard.
 */
public final class AnalyticsTopology {
    private AnalyticsTopology() {
    }

    @SuppressWarnings("unchecked")
    private static KStream<String, Object> asObjects(KStream<String, ?> stream) {
        return (KStream<String, Object>) stream;
    }

    /**
     * @param outcomes      every classified outcome, as classification emits them
     * @param settings      how often local partial aggregates are sent on (wall clock), and how long after a window's
     *                      end late outcomes still update it
     */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, ClassifiedOutcome> outcomes,
                             KStream<String, ContinuationEvaluated> continuations, AnalyticsSettings settings) {
        build(builder, topics, events(outcomes, continuations), settings);
    }

    /**
     * One stream of both kinds for the pre-aggregator, which tells them apart; a cast, not a mapValues: a node costs
     * a forward and a copy of the record's headers per record. The pipeline merges them whether analytics is on or
     * not, so the continuation events' source stays in classification's sub-topology and numbers no other one.
     */
    public static KStream<String, Object> events(KStream<String, ClassifiedOutcome> outcomes,
                                                 KStream<String, ContinuationEvaluated> continuations) {
        return asObjects(outcomes).merge(asObjects(continuations), Named.as("analytics-events"));
    }

    /** Adds the analytics stage over {@link #events}. */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, Object> events, AnalyticsSettings settings) {
        Serde<AgentMetrics> serde = AvroSerde.specific(AgentMetrics.class).configured(topics.serdeConfig, false);
        KStream<String, AgentMetrics> windows = events
                .process(PreAggregator.supplier(settings, serde), Named.as("analytics-pre-aggregate"))
                .repartition(Repartitioned.with(Serdes.String(), serde).withName("analytics-partials")
                        .withStreamPartitioner(new SourceProgress.Partitioner<>()))
                .process(WindowMerger.supplier(settings.grace(), serde), Named.as("analytics-merge"));
        windows.filter((key, metrics) -> metrics.getWindowStart() != null
                        && WindowKey.decode(key).size() == WindowSize.ONE_MINUTE, Named.as("analytics-1m"))
                .to(topics.agentMetrics1m.name(), topics.agentMetrics1m.produced().withName("write-agent-metrics-1m"));
        windows.filter((key, metrics) -> metrics.getWindowStart() != null
                        && WindowKey.decode(key).size() == WindowSize.ONE_HOUR, Named.as("analytics-1h"))
                .to(topics.agentMetrics1h.name(), topics.agentMetrics1h.produced().withName("write-agent-metrics-1h"));
    }

}
