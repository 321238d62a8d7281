package io.agentoutcomes.topology;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.analytics.AnalyticsTopology;
import io.agentoutcomes.topology.classify.ClassifyTopology;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.TaskRetention;
import io.agentoutcomes.topology.ingest.IngestTopology;
import io.agentoutcomes.topology.replay.ReplayLimits;
import io.agentoutcomes.topology.replay.ReplayTopology;
import io.agentoutcomes.topology.schedule.RetrySchedulerTopology;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
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
 * {@link ClassifyTopology} (classification and routing), {@link RetrySchedulerTopology} (delayed retries) and
 * {@link ReplayTopology} (per-job replay state) and {@link AnalyticsTopology} (cost, token and retry analytics).
 */
public final class AgentOutcomesTopology {
    private AgentOutcomesTopology() {
    }

    /** Builds the pipeline's topology over the given topics, with default retry policy and topology settings. */
    public static Topology build(Topics topics) {
        return build(topics, RetryPolicy.defaults(), new Properties());
    }

    /**
     * Builds the pipeline's topology.
     *
     * @param policy        classification policies, backoff, delay tiers (the same tiers as {@code topics}')
     * @param streamsConfig the application's streams settings (topology optimization and the like)
     */
    public static Topology build(Topics topics, RetryPolicy policy, Properties streamsConfig) {
        return build(topics, policy, AnalyticsSettings.defaults(), streamsConfig);
    }

    /** As {@link #build(Topics, RetryPolicy, Properties)}, with analytics settings. */
    public static Topology build(Topics topics, RetryPolicy policy, AnalyticsSettings analytics, Properties streamsConfig) {
        return build(topics, policy, analytics, ReplayLimits.defaults(), InputLimits.defaults(), streamsConfig);
    }

    /** As {@link #build(Topics, RetryPolicy, Properties)}, with analytics settings, replay state and input limits. */
    public static Topology build(Topics topics, RetryPolicy policy, AnalyticsSettings analytics, ReplayLimits replayLimits,
                                 InputLimits inputLimits, Properties streamsConfig) {
        return build(topics, policy, SchedulerSettings.defaults(), TaskRetention.defaults(), analytics, replayLimits,
                inputLimits, streamsConfig);
    }

    /** As above, with how the scheduler checks for due retries and how long the classifier remembers a task. */
    public static Topology build(Topics topics, RetryPolicy policy, SchedulerSettings scheduler, TaskRetention taskRetention,
                                 AnalyticsSettings analytics, ReplayLimits replayLimits, InputLimits inputLimits,
                                 Properties streamsConfig) {
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(withDefaults(streamsConfig))));
        IngestTopology.build(builder, topics, inputLimits);
        Intake intake = Intake.build(builder, topics, inputLimits);
        KStream<String, ClassifiedOutcome> outcomes = ClassifyTopology.build(builder, topics, intake, policy, taskRetention,
                nodeOutcomes -> ReplayTopology.build(builder, topics, nodeOutcomes, replayLimits));
        RetrySchedulerTopology.build(builder, topics, scheduler);
        if (analytics.enabled()) {
            AnalyticsTopology.build(builder, topics, outcomes, intake.continuationEvents(), analytics.flushInterval(),
                    analytics.grace());
        }
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
