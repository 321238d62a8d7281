package io.agentoutcomes.topology;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.analytics.AnalyticsTopology;
import io.agentoutcomes.topology.budget.BudgetTopology;
import io.agentoutcomes.topology.classify.ClassifyTopology;
import io.agentoutcomes.topology.ingest.IngestTopology;
import io.agentoutcomes.topology.intake.Intake;
import io.agentoutcomes.topology.provider.ProviderGateTopology;
import io.agentoutcomes.topology.replay.ReplayTopology;
import io.agentoutcomes.topology.schedule.RetrySchedulerTopology;
import io.agentoutcomes.topology.topic.Topics;
import java.util.Properties;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.KStream;

/**
 * The whole pipeline: each stage adds its topology onto one {@link StreamsBuilder}. Stages live in classes of
 * their own; this class only puts them together: {@link IngestTopology} (JSON of every dialect to canonical Avro),
 * {@link Intake} (the Avro input topics decoded; undecodable records to {@code rejected-input}),
 * {@link ClassifyTopology} (classification and routing), {@link RetrySchedulerTopology} (delayed retries), {@link ProviderGateTopology} (due retries paced and held per
 * provider) and
 * {@link ReplayTopology} (per-job replay state), {@link BudgetTopology} (cost budgets and their alerts; classification
 * reads their status for budget-aware retries) and {@link AnalyticsTopology} (cost, token and retry analytics).
 */
public final class AgentOutcomesTopology {
    private AgentOutcomesTopology() {
    }

    /**
     * Builds the pipeline's topology: the stages in the order records pass them.
     *
     * @param streamsConfig the application's streams settings (topology optimization and the like)
     */
    public static Topology build(Topics topics, PipelineSettings settings, Properties streamsConfig) {
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(withDefaults(streamsConfig))));
        IngestTopology.build(builder, topics, settings.input());
        // Attributed and priced before classification, in the node that accepts them (one node, not one per step),
        // so every stage after it (and every reader of its topics) sees one attribution and one cost.
        Intake intake = Intake.build(builder, topics, settings.input(), settings.pricing());
        ClassifyTopology.Classified classified = ClassifyTopology.classify(builder, intake.agentResults(),
                intake.nodeFinished(), settings.retry(), settings.taskRetention(), BudgetTopology.guard(settings.budgets()));
        // Before routing: a record's raw source bytes are freed once it reaches a sink, and the replay fold may
        // reject a node event to rejected-input, which needs them.
        ReplayTopology.build(builder, topics, classified.nodeOutcomes(), settings.replay());
        KStream<String, ClassifiedOutcome> outcomes = classified.all();
        ClassifyTopology.route(outcomes, topics, settings.retry().tiers(), settings.retry().fallbacks());
        KStream<String, Object> events = AnalyticsTopology.events(outcomes, intake.continuationEvents());
        KStream<String, RetryRequest> due = RetrySchedulerTopology.build(builder, topics, settings.scheduler());
        // Kafka Streams numbers sub-topologies in the order their first node is added, and a task's state directory
        // is named by that number: the optional stages come last, in this fixed order, those on by default first, so
        // turning one on renumbers no always-on stage, and declaring a budget renumbers nothing (issue 29 item 6).
        ProviderGateTopology.build(builder, topics, due, outcomes, settings.providers(), settings.retry().fallbacks());
        if (settings.analytics().enabled()) {
            AnalyticsTopology.build(builder, topics, events, settings.analytics());
        }
        BudgetTopology.build(builder, topics, classified.agentOutcomes(), settings.budgets());
        // The OTLP input (issue 31) is the newest stage: stateless, it comes after all, so upgrading to it renumbers
        // no stage that has state.
        IngestTopology.buildOtlp(builder, topics, settings.input());
        return builder.build(streamsConfig);
    }

    /** StreamsConfig insists on an application id and bootstrap servers, even where only topology settings matter. */
    private static Properties withDefaults(Properties streamsConfig) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "agent-outcomes");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.putAll(streamsConfig);
        return props;
    }
}
