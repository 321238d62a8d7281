package io.agentoutcomes.topology.provider;

import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ProviderSignal;
import io.agentoutcomes.avro.RetryAction;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import io.agentoutcomes.topology.topic.Topics;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Fleet-wide pacing and circuits per provider: due retries of a provider's results pass the gate of their scope
 * ({@link RetryGate}, {@link ScopeGate}) before {@code retry-ready}, and the scope's evidence moves it
 * ({@link SignalGate}). Both the retries and the tallies of outcomes ({@link ProviderSignals}) are re-keyed by scope
 * through repartition topics of equal partitions, so one stream task, on one instance, owns each scope's budget,
 * circuit and held retries: the budget is not split between instances, and nothing needs to agree.
 * Retries that name no provider, and retries that switch provider (a daily limit exhausted) without a fallback chain
 * declared for their model, go straight on.
 */
public final class ProviderGateTopology {
    private ProviderGateTopology() {
    }

    /**
     * With declared fallback chains ({@link Fallbacks}, {@link FallbackChains#NONE} for none) the scopes of a chain are
     * kept by one gate task ({@link ChainPartitioner}), and a retry that switches provider passes the gate where its
     * model has a chain.
     */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, RetryRequest> due,
                             KStream<String, ClassifiedOutcome> outcomes, ProviderGateSettings settings,
                             FallbackChains chains) {
        Produced<String, RetryRequest> toRetryReady = topics.retryReady.produced();
        if (!settings.enabled()) {
            due.to(topics.retryReady.name(), toRetryReady.withName("write-retry-ready"));
            return;
        }
        Fallbacks fallbacks = new Fallbacks(chains, settings);
        Map<String, KStream<String, RetryRequest>> split = due.split(Named.as("gate-"))
                .branch((task, retry) -> gated(retry, settings, fallbacks), Branched.as("scoped"))
                .defaultBranch(Branched.as("ungated"));
        split.get("gate-ungated").to(topics.retryReady.name(), toRetryReady.withName("write-retry-ready"));
        KStream<String, RetryRequest> retries = split.get("gate-scoped")
                .selectKey((task, retry) -> Fallbacks.scopeOf(retry, settings.scope()).key(),
                        Named.as("key-retries-by-provider"))
                .repartition(partitioned(Repartitioned.with(Serdes.String(), topics.retryReady.valueSerde()).withName("provider-retries")
                        .withNumberOfPartitions(settings.partitions()), chains, settings));
        Serde<ProviderSignal> signalSerde = AvroSerde.specific(ProviderSignal.class).configured(topics.serdeConfig, false);
        KStream<String, ProviderSignal> signals = outcomes
                .process(() -> new ProviderSignals(settings), Named.as("tally-provider-signals"))
                .repartition(partitioned(Repartitioned.with(Serdes.String(), signalSerde).withName("provider-signals")
                        .withNumberOfPartitions(settings.partitions()), chains, settings));
        // One task reads both repartition topics' partitions of a number, and takes their records one at a time, in
        // the order of their timestamps, each through its own processor: the two share the task's stores and scopes
        // (GateTasks), so a scope's retries and signals meet in the order they did through one merged processor.
        GateTasks tasks = new GateTasks(settings);
        KStream<String, Object> gatedRetries = retries.process(new StoreOwningSupplier<>(() -> new RetryGate(settings, fallbacks,
                tasks), ProviderGateStores.states(topics.serdeConfig), ProviderGateStores.held()), Named.as("provider-gate"));
        gatedRetries.to(topics.retryReady.name(), produced(topics.retryReady, RetryGate.RETRIES));
        gatedRetries.to(topics.providerHealth.name(), produced(topics.providerHealth, RetryGate.HEALTH));
        gatedRetries.to(topics.deadLetter.name(), produced(topics.deadLetter, RetryGate.DEAD_LETTERS));
        // The second processor connects the stores by name: declared again by its supplier, Kafka Streams 4.3 keeps them
        // but puts the processor in a sub-topology of its own, a task apart from its stores' other user.
        KStream<String, Object> released = signals.process(() -> new SignalGate(settings, tasks), Named.as("provider-gate-signals"),
                ProviderGateStores.STATE_STORE, ProviderGateStores.HELD_STORE);
        released.to(topics.retryReady.name(), produced(topics.retryReady, SignalGate.RETRIES));
        released.to(topics.providerHealth.name(), produced(topics.providerHealth, SignalGate.HEALTH));
    }

    /**
     * Whether a due retry passes a gate: it names a provider (or carries a fallback), and does not switch away from it
     * unless a fallback chain says where to.
     */
    static boolean gated(RetryRequest retry, ProviderGateSettings settings, Fallbacks fallbacks) {
        return (retry.getAction() != RetryAction.SWITCH_PROVIDER || fallbacks.declared(retry))
                && Fallbacks.scopeOf(retry, settings.scope()) != null;
    }

    /** The scopes of a chain in one partition; without chains, Kafka's own partitioner, as before. */
    private static <V> Repartitioned<String, V> partitioned(Repartitioned<String, V> repartitioned, FallbackChains chains,
                                                            ProviderGateSettings settings) {
        return chains.isEmpty() ? repartitioned : repartitioned.withStreamPartitioner(new ChainPartitioner<>(chains, settings.scope()));
    }

    @SuppressWarnings("unchecked")
    private static Produced<String, Object> produced(Topics.Topic<String, ?> topic, String sinkName) {
        return Produced.with(topic.keySerde(), (Serde<Object>) topic.valueSerde()).withName(sinkName);
    }
}
