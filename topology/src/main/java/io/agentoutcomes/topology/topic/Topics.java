package io.agentoutcomes.topology.topic;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ContinuationEvaluated;
import io.agentoutcomes.avro.DeadLetterRedrive;
import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.ProviderHealth;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.TopicNames;
import io.agentoutcomes.avro.serde.AvroSerde;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The typed registry of the pipeline's topics: each one's name (with the configured prefix), its key and value
 * serdes, and whether it is compacted. Topologies take topics from here and never spell a name or pick a serde.
 */
public final class Topics {

    /** How a topic's old records go: deleted by retention, or compacted to the latest per key. */
    public enum Cleanup { DELETE, COMPACT }

    /** One topic: its name, serdes, cleanup policy, and the Avro schema of its values if they are Avro. */
    public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, Cleanup cleanup,
                              Optional<Schema> valueSchema) {
        public Consumed<K, V> consumed() {
            return Consumed.with(keySerde, valueSerde);
        }

        public Produced<K, V> produced() {
            return Produced.with(keySerde, valueSerde);
        }
    }

    /** The Avro serde's settings, for the stores of the stages. */
    public final Map<String, ?> serdeConfig;
    public final Topic<String, AgentResult> agentResults;
    public final Topic<byte[], byte[]> agentResultsJson;
    public final Topic<String, NodeFinished> nodeFinished;
    public final Topic<byte[], byte[]> nodeFinishedJson;
    public final Topic<String, ContinuationEvaluated> continuationEvents;
    public final Topic<byte[], byte[]> continuationEventsJson;
    /** OTLP trace export requests (the Collector's Kafka exporter), named in full: no prefix. */
    public final Topic<byte[], byte[]> otlpSpans;
    public final Topic<byte[], byte[]> rejectedInput;
    public final Topic<String, ClassifiedOutcome> outcomesClassified;
    /** One delay topic per retry tier, by tier name, in tier order: where retries are written today. */
    public final Map<String, Topic<String, RetryRequest>> retryDelay;
    /**
     * Every delay topic of the prefix, whichever tiers made it ({@code <prefix>retry-delay-<tier>}, a tier name being
     * letters and digits): what the scheduler reads, so a retry written to a tier that a later setting retired is
     * still forwarded.
     */
    public final Pattern retryDelayFamily;
    public final Topic<String, RetryRequest> retryReady;
    public final Topic<String, ClassifiedOutcome> deadLetter;
    /** The dead letters redriven, one record each, kept forever (compacted): what makes a redrive happen once. */
    public final Topic<String, DeadLetterRedrive> redrives;
    public final Topic<String, ClassifiedOutcome> compensations;
    /** Successes below {@code policy.confidence.verify-below}, for another agent to verify. */
    public final Topic<String, ClassifiedOutcome> verifications;
    public final Topic<String, JobReplayState> replayState;
    public final Topic<String, AgentMetrics> agentMetrics1m;
    public final Topic<String, AgentMetrics> agentMetrics1h;
    /** Each change of a provider's circuit, keyed by scope. */
    public final Topic<String, ProviderHealth> providerHealth;
    /** Each threshold a budget crosses, once per period, keyed by budget and value. */
    public final Topic<String, BudgetAlert> budgetAlerts;
    /** The budgets exhausted in their period, the latest per budget and value (compacted). */
    public final Topic<String, BudgetStatus> budgetStatus;

    /**
     * @param prefix      prepended to every topic name
     * @param serdeConfig the Avro serde's settings ({@code schema.registry.url} and the like)
     * @param tierNames   the names of the retry delay tiers, one {@code retry-delay-<tier>} topic each
     */
    public Topics(String prefix, Map<String, ?> serdeConfig, List<String> tierNames) {
        this(prefix, serdeConfig, tierNames, TopicNames.OTLP_SPANS);
    }

    /** As above, reading OTLP spans from {@code otlpSpans} (a full name, not prefixed). */
    public Topics(String prefix, Map<String, ?> serdeConfig, List<String> tierNames, String otlpSpans) {
        this.otlpSpans = json(otlpSpans);
        this.serdeConfig = Map.copyOf(serdeConfig);
        agentResults = avro(prefix + TopicNames.AGENT_RESULTS, AgentResult.class, serdeConfig);
        agentResultsJson = json(prefix + TopicNames.AGENT_RESULTS_JSON);
        nodeFinished = avro(prefix + TopicNames.NODE_FINISHED, NodeFinished.class, serdeConfig);
        nodeFinishedJson = json(prefix + TopicNames.NODE_FINISHED_JSON);
        continuationEvents = avro(prefix + TopicNames.CONTINUATION_EVENTS, ContinuationEvaluated.class, serdeConfig);
        continuationEventsJson = json(prefix + TopicNames.CONTINUATION_EVENTS_JSON);
        rejectedInput = new Topic<>(prefix + TopicNames.REJECTED_INPUT, Serdes.ByteArray(), Serdes.ByteArray(), Cleanup.DELETE,
                Optional.empty());
        outcomesClassified = avro(prefix + TopicNames.OUTCOMES_CLASSIFIED, ClassifiedOutcome.class, serdeConfig);
        Map<String, Topic<String, RetryRequest>> delays = new LinkedHashMap<>();
        for (String tier : tierNames) {
            delays.put(tier, avro(prefix + TopicNames.retryDelay(tier), RetryRequest.class, serdeConfig));
        }
        retryDelay = Collections.unmodifiableMap(delays);
        retryDelayFamily = Pattern.compile(Pattern.quote(prefix + TopicNames.RETRY_DELAY_PREFIX) + "[A-Za-z0-9]+");
        retryReady = avro(prefix + TopicNames.RETRY_READY, RetryRequest.class, serdeConfig);
        deadLetter = avro(prefix + TopicNames.DEAD_LETTER, ClassifiedOutcome.class, serdeConfig);
        Topic<String, DeadLetterRedrive> redriven = avro(prefix + TopicNames.REDRIVES, DeadLetterRedrive.class, serdeConfig);
        redrives = new Topic<>(redriven.name(), redriven.keySerde(), redriven.valueSerde(), Cleanup.COMPACT,
                redriven.valueSchema());
        compensations = avro(prefix + TopicNames.COMPENSATIONS, ClassifiedOutcome.class, serdeConfig);
        verifications = avro(prefix + TopicNames.VERIFICATIONS, ClassifiedOutcome.class, serdeConfig);
        Topic<String, JobReplayState> replay = avro(prefix + TopicNames.REPLAY_STATE, JobReplayState.class, serdeConfig);
        replayState = new Topic<>(replay.name(), replay.keySerde(), replay.valueSerde(), Cleanup.COMPACT, replay.valueSchema());
        agentMetrics1m = avro(prefix + TopicNames.AGENT_METRICS_1M, AgentMetrics.class, serdeConfig);
        agentMetrics1h = avro(prefix + TopicNames.AGENT_METRICS_1H, AgentMetrics.class, serdeConfig);
        providerHealth = avro(prefix + TopicNames.PROVIDER_HEALTH, ProviderHealth.class, serdeConfig);
        budgetAlerts = avro(prefix + TopicNames.BUDGET_ALERTS, BudgetAlert.class, serdeConfig);
        Topic<String, BudgetStatus> status = avro(prefix + TopicNames.BUDGET_STATUS, BudgetStatus.class, serdeConfig);
        budgetStatus = new Topic<>(status.name(), status.keySerde(), status.valueSerde(), Cleanup.COMPACT, status.valueSchema());
    }

    /** Every topic, for creating them at start. */
    public List<Topic<?, ?>> all() {
        List<Topic<?, ?>> all = new ArrayList<>(List.of(agentResults, agentResultsJson, nodeFinished, nodeFinishedJson,
                continuationEvents, continuationEventsJson, otlpSpans, rejectedInput, outcomesClassified));
        all.addAll(retryDelay.values());
        all.addAll(List.of(retryReady, deadLetter, redrives, compensations, verifications, replayState, agentMetrics1m, agentMetrics1h,
                providerHealth, budgetAlerts, budgetStatus));
        return all;
    }

    private static <V extends SpecificRecord> Topic<String, V> avro(String name, Class<V> type, Map<String, ?> serdeConfig) {
        return new Topic<>(name, Serdes.String(), AvroSerde.specific(type).configured(serdeConfig, false), Cleanup.DELETE,
                Optional.of(SpecificData.get().getSchema(type)));
    }

    /** JSON (and OTLP) topics are read as bytes: a record that cannot be read is passed on exactly as it came. */
    private static Topic<byte[], byte[]> json(String name) {
        return new Topic<>(name, Serdes.ByteArray(), Serdes.ByteArray(), Cleanup.DELETE, Optional.empty());
    }
}
