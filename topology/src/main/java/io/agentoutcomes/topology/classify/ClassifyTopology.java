package io.agentoutcomes.topology.classify;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.RetryRequest;
import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.topic.Topics;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Classifies every completion and routes it: all to {@code outcomes-classified}, retries to
 * {@code retry-delay-<tier>}, stops to {@code dead-letter}, compensatable failures to {@code compensations}, outcomes
 * whose confidence asks for it to {@code verifications}; ignored failures are counted and go nowhere else. The
 * classification is {@link TaskClassifier}'s, one per kind of completion, each with its task store; a workflow node
 * is a task too: {@code jobId/nodeId}.
 */
public final class ClassifyTopology {
    private ClassifyTopology() {
    }

    /** The classified outcomes of agent results and of workflow nodes. */
    public record Classified(KStream<String, ClassifiedOutcome> agentOutcomes,
                             KStream<String, ClassifiedOutcome> nodeOutcomes) {
        /** Both kinds as one stream, for routing and the analytics. */
        public KStream<String, ClassifiedOutcome> all() {
            return agentOutcomes.merge(nodeOutcomes, Named.as("all-classified-outcomes"));
        }
    }

    /**
     * Adds the classification of agent results and node events (the intake's streams), each kind with its task store;
     * {@code budgets} stop agent results' retries once exhausted (budget-aware retries; {@link BudgetGuard.Factory#NONE}:
     * none do).
     */
    public static Classified classify(StreamsBuilder builder, KStream<String, AgentResult> agentResults,
                                      KStream<String, NodeFinished> nodeFinished, RetryPolicy policy,
                                      TaskRetention retention, BudgetGuard.Factory budgets) {
        return new Classified(
                classify(agentResults, TaskKind.AGENT_RESULTS, TaskClassifier.AGENT_TASKS_STORE,
                        "classify-agent-results", policy, retention, budgets),
                classify(nodeFinished, TaskKind.NODE_FINISHED, TaskClassifier.NODE_TASKS_STORE,
                        "classify-node-finished", policy, retention, BudgetGuard.Factory.NONE));
    }

    /** One kind of completion classified by a {@link TaskClassifier} with its own task store. */
    static <V> KStream<String, ClassifiedOutcome> classify(KStream<String, V> completions, TaskKind<V> kind, String store,
                                                           String name, RetryPolicy policy, TaskRetention retention,
                                                           BudgetGuard.Factory budgets) {
        return completions.process(TaskClassifier.supplier(policy, kind, store, retention, budgets), Named.as(name));
    }

    /** Writes each outcome to the topics its decision names ({@link OutcomeRouter}), each through a sink of its own. */
    public static void route(KStream<String, ClassifiedOutcome> outcomes, Topics topics, RetryTiers tiers) {
        route(outcomes, topics, tiers, FallbackChains.NONE);
    }

    /** As above, a retry on a context-window fallback carrying its model ({@link ContextWindowFallback}). */
    public static void route(KStream<String, ClassifiedOutcome> outcomes, Topics topics, RetryTiers tiers,
                             FallbackChains fallbacks) {
        KStream<String, Object> routed = outcomes.process(() -> new OutcomeRouter(tiers, fallbacks), Named.as("route-outcomes"));
        routed.to(topics.outcomesClassified.name(), produced(topics.outcomesClassified, OutcomeRouter.OUTCOMES));
        routed.to(topics.deadLetter.name(), produced(topics.deadLetter, OutcomeRouter.DEAD_LETTERS));
        routed.to(topics.compensations.name(), produced(topics.compensations, OutcomeRouter.COMPENSATIONS));
        routed.to(topics.verifications.name(), produced(topics.verifications, OutcomeRouter.VERIFICATIONS));
        routed.to((taskId, retry, context) -> topics.retryDelay.get(((RetryRequest) retry).getTier()).name(),
                produced(topics.retryReady, OutcomeRouter.RETRIES));
    }

    /** A sink of the router's: the topic's serdes, named so that the router can forward to it alone. */
    @SuppressWarnings("unchecked")
    private static Produced<String, Object> produced(Topics.Topic<String, ?> topic, String sinkName) {
        return Produced.with(topic.keySerde(), (Serde<Object>) topic.valueSerde()).withName(sinkName);
    }
}
