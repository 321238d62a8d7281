package io.agentoutcomes.topology.budget;

import static io.agentoutcomes.topology.budget.BudgetStores.ALERT_COUNTS_STORE;
import static io.agentoutcomes.topology.budget.BudgetStores.SPEND_STORE;

import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetCharge;
import io.agentoutcomes.avro.BudgetPeriodSpend;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.topology.punctuation.PunctuationWatch;
import io.agentoutcomes.topology.punctuation.Punctuators;
import io.agentoutcomes.topology.state.StoreOwningSupplier;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the spend of each budget and value per period (the charges arrive keyed by budget and value, so one stream
 * task owns each), and on each threshold a charge crosses forwards one {@link BudgetAlert}, and on reaching the limit
 * one {@link BudgetStatus}. Spend, the thresholds crossed and the alert counts are in changelogged stores, so with
 * exactly-once an alert and the state that says it was sent commit in one transaction: never twice, never lost.
 * <p>
 * A key keeps its current period and the one before (a late result of yesterday still counts to yesterday); a charge
 * older than that is dropped and counted ({@code late-charges}). A key with neither is deleted by a sweep.
 */
final class BudgetKeeper implements Processor<String, BudgetCharge, String, Object> {
    /** The sinks it forwards to (named in {@link BudgetTopology}). */
    static final String ALERTS = "write-budget-alerts";
    static final String STATUS = "write-budget-status";
    /** How often (wall clock) keys without a current or previous period are looked for. */
    static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

    private final BudgetSettings settings;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, BudgetState> spend;
    private KeyValueStore<String, Long> alertCounts;
    private Sensor late;

    BudgetKeeper(BudgetSettings settings) {
        this.settings = settings;
    }

    /** The keeper with its stores of spend and alert counts ({@link BudgetStores}). */
    static ProcessorSupplier<String, BudgetCharge, String, Object> supplier(BudgetSettings settings, Map<String, ?> serdeConfig) {
        return new StoreOwningSupplier<>(() -> new BudgetKeeper(settings), BudgetStores.spend(serdeConfig),
                BudgetStores.alertCounts());
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.spend = context.getStateStore(SPEND_STORE);
        this.alertCounts = context.getStateStore(ALERT_COUNTS_STORE);
        late = context.metrics().addRateTotalSensor("agent-outcomes-budgets", SPEND_STORE, "late-charges",
                Sensor.RecordingLevel.INFO);
        PunctuationWatch.schedule(Punctuators.BUDGET_KEEPER, context, SWEEP_INTERVAL,
                now -> sweep(context.currentStreamTimeMs()));
    }

    @Override
    public void process(Record<String, BudgetCharge> record) {
        Budget budget = settings.budget(Budget.nameOf(record.key()));
        if (budget == null || record.value() == null) {
            return; // a charge in flight for a budget no longer declared
        }
        BudgetState state = spend.get(record.key());
        if (state == null) {
            state = new BudgetState(budget.name(), Budget.valueOf(record.key()), new ArrayList<>());
        }
        BudgetPeriodSpend period = periodOf(state, budget, record.timestamp());
        if (period == null) {
            late.record();
            return;
        }
        BigDecimal after = Money.toDecimal(period.getSpend()).add(Money.toDecimal(record.value().getCost()));
        period.setSpend(Money.toBytes(after));
        period.setCharges(period.getCharges() + 1);
        for (int threshold : budget.thresholds()) {
            if (!period.getCrossed().contains(threshold) && budget.reaches(after, threshold)) {
                period.getCrossed().add(threshold);
                context.forward(record.withValue((Object) alert(budget, state, period, threshold, record)), ALERTS);
                String counted = budget.name() + Budget.SEPARATOR + threshold;
                Long count = alertCounts.get(counted);
                alertCounts.put(counted, count == null ? 1 : count + 1);
            }
        }
        if (!period.getExhausted() && budget.reaches(after, 100)) {
            period.setExhausted(true);
            context.forward(record.withValue((Object) status(budget, state, period, record)), STATUS);
        }
        spend.put(record.key(), state);
    }

    /**
     * The period of the state a charge at {@code time} counts in: found, or added (a newer period drops the ones before
     * the previous); null when it is older than the previous of the newest kept.
     */
    private static BudgetPeriodSpend periodOf(BudgetState state, Budget budget, long time) {
        long start = BudgetPeriods.start(budget.period(), time);
        List<BudgetPeriodSpend> periods = state.getPeriods();
        for (BudgetPeriodSpend period : periods) {
            if (period.getStart() == start) {
                return period;
            }
        }
        long newest = periods.isEmpty() ? Long.MIN_VALUE : periods.get(periods.size() - 1).getStart();
        BudgetPeriodSpend added = new BudgetPeriodSpend(start, BudgetPeriods.end(budget.period(), start), Money.ofPicos(0),
                new ArrayList<>(), false, 0L);
        if (start > newest) {
            long previous = BudgetPeriods.previous(budget.period(), start);
            periods.removeIf(period -> period.getStart() < previous);
            periods.add(added);
            return added;
        }
        if (start >= BudgetPeriods.previous(budget.period(), newest)) {
            periods.add(0, added);
            return added;
        }
        return null;
    }

    private static BudgetAlert alert(Budget budget, BudgetState state, BudgetPeriodSpend period, int threshold,
                                     Record<String, BudgetCharge> charge) {
        return BudgetAlert.newBuilder().setBudget(budget.name()).setDimension(budget.dimension().label())
                .setValue(state.getValue()).setPeriod(budget.period()).setPeriodStart(period.getStart())
                .setPeriodEnd(period.getEnd()).setLimit(Money.toBytes(budget.limitUsd())).setSpend(period.getSpend().duplicate())
                .setThresholdPercent(threshold).setResultId(charge.value().getResultId())
                .setTaskId(charge.value().getTaskId()).setCrossedAt(charge.timestamp()).build();
    }

    private static BudgetStatus status(Budget budget, BudgetState state, BudgetPeriodSpend period,
                                       Record<String, BudgetCharge> charge) {
        return BudgetStatus.newBuilder().setBudget(budget.name()).setDimension(budget.dimension().label())
                .setValue(state.getValue()).setPeriod(budget.period()).setPeriodStart(period.getStart())
                .setPeriodEnd(period.getEnd()).setLimit(Money.toBytes(budget.limitUsd())).setSpend(period.getSpend().duplicate())
                .setResultId(charge.value().getResultId()).setExhaustedAt(charge.timestamp()).build();
    }

    /**
     * Deletes the keys whose newest period is older than the previous period of stream time (the task's latest event
     * time), and their status; budgets no longer declared go too. Stream time, not the wall clock: a replay of old
     * records is not swept as it is read.
     */
    void sweep(long streamTime) {
        if (streamTime < 0) {
            return;
        }
        List<String> expired = new ArrayList<>();
        try (KeyValueIterator<String, BudgetState> all = spend.all()) {
            while (all.hasNext()) {
                KeyValue<String, BudgetState> entry = all.next();
                Budget budget = settings.budget(entry.value.getBudget());
                List<BudgetPeriodSpend> periods = entry.value.getPeriods();
                if (budget == null || periods.isEmpty() || periods.get(periods.size() - 1).getStart()
                        < BudgetPeriods.previous(budget.period(), BudgetPeriods.start(budget.period(), streamTime))) {
                    expired.add(entry.key);
                }
            }
        }
        for (String key : expired) {
            spend.delete(key);
            context.forward(new Record<>(key, null, streamTime), STATUS);
        }
    }
}
