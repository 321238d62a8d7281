package io.agentoutcomes.topology.budget;

import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.BudgetCharge;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.topology.classify.BudgetGuard;
import io.agentoutcomes.topology.topic.Topics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Cost budgets: each costed agent outcome (one per completion: classification dropped the duplicates) is charged to
 * every declared budget whose dimension value it states, re-keyed by budget and value through the repartition topic
 * {@code budget-charges}, so one stream task owns each budget value; {@link BudgetKeeper} keeps the spend per period
 * and publishes each threshold crossed once to {@code budget-alerts}, and each budget exhausted to
 * {@code budget-status}, which classification reads back through a global store ({@link #guard}). Not built when
 * no budget is declared.
 */
public final class BudgetTopology {
    private BudgetTopology() {
    }

    /**
     * The budgets' status as classification reads it, from the global store {@value BudgetStores#STATUS_STORE} that
     * {@link #build} adds when a budget stops retries; otherwise no guard. Needs no builder: a global store is read
     * from any processor, so it is added with the optional stages, last, and numbers no other sub-topology.
     */
    public static BudgetGuard.Factory guard(BudgetSettings settings) {
        if (!settings.stopsRetries()) {
            return BudgetGuard.Factory.NONE;
        }
        return context -> {
            KeyValueStore<String, BudgetStatus> store = context.getStateStore(BudgetStores.STATUS_STORE);
            return new BudgetStatusGuard(settings, store::get);
        };
    }

    /** Adds the budget stage over the agents' classified outcomes. */
    public static void build(StreamsBuilder builder, Topics topics, KStream<String, ClassifiedOutcome> outcomes,
                             BudgetSettings settings) {
        if (!settings.enabled()) {
            return;
        }
        Serde<BudgetCharge> chargeSerde = AvroSerde.specific(BudgetCharge.class).configured(topics.serdeConfig, false);
        KStream<String, BudgetCharge> charges = outcomes
                .flatMap((task, outcome) -> charges(outcome, settings), Named.as("charge-budgets"))
                .repartition(Repartitioned.with(Serdes.String(), chargeSerde).withName("budget-charges")
                        .withNumberOfPartitions(settings.partitions()));
        KStream<String, Object> kept = charges.process(BudgetKeeper.supplier(settings, topics.serdeConfig),
                Named.as("budget-keeper"));
        kept.to(topics.budgetAlerts.name(), produced(topics.budgetAlerts, BudgetKeeper.ALERTS));
        kept.to(topics.budgetStatus.name(), produced(topics.budgetStatus, BudgetKeeper.STATUS));
        if (settings.stopsRetries()) {
            // A global store is added with its source, not declared by its processor's supplier.
            builder.addGlobalStore(BudgetStores.status(topics.budgetStatus.valueSerde()), topics.budgetStatus.name(),
                    Consumed.with(topics.budgetStatus.keySerde(), topics.budgetStatus.valueSerde()).withName("read-budget-status"),
                    BudgetStatusUpdater::new);
        }
    }

    /** The charges of one outcome: its result's total cost, to each budget whose dimension value it states. */
    static List<KeyValue<String, BudgetCharge>> charges(ClassifiedOutcome outcome, BudgetSettings settings) {
        AgentResult result = outcome.getAgentResult();
        ByteBuffer cost = result == null || result.getExecution() == null || result.getExecution().getCost() == null ? null
                : result.getExecution().getCost().getTotal();
        if (cost == null || Money.toDecimal(cost).signum() <= 0) {
            return List.of();
        }
        List<KeyValue<String, BudgetCharge>> charges = new ArrayList<>(1);
        for (Budget budget : settings.budgets().values()) {
            String value = budget.valueOf(result);
            if (value != null) {
                charges.add(KeyValue.pair(budget.key(value), new BudgetCharge(outcome.getResultId(), outcome.getTaskId(),
                        cost.duplicate())));
            }
        }
        return charges;
    }

    @SuppressWarnings("unchecked")
    private static Produced<String, Object> produced(Topics.Topic<String, ?> topic, String sinkName) {
        return Produced.with(topic.keySerde(), (Serde<Object>) topic.valueSerde()).withName(sinkName);
    }
}
