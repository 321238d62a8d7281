package io.agentoutcomes.topology.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.agentoutcomes.avro.BudgetAlert;
import io.agentoutcomes.avro.BudgetCharge;
import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.avro.BudgetState;
import io.agentoutcomes.avro.BudgetStatus;
import io.agentoutcomes.avro.Money;
import io.agentoutcomes.avro.registry.MockSchemaRegistry;
import io.agentoutcomes.avro.serde.AvroSerde;
import io.agentoutcomes.avro.serde.AvroSerdeConfig;
import io.agentoutcomes.topology.analytics.Dimension;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The keeper alone, on a MockProcessorContext: what it forwards where, what it keeps, and its sweep. */
class BudgetKeeperTest {
    private static final String SCOPE = "budget-keeper-test";
    private static final long DAY_1 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();
    private static final long DAY_3 = Instant.parse("2026-03-03T00:00:00Z").toEpochMilli();
    private static final Budget DAILY = new Budget("daily", Dimension.AGENT, null, BudgetPeriod.DAY, new BigDecimal("1"),
            Budget.DEFAULT_THRESHOLDS, true);

    private final MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    private KeyValueStore<String, BudgetState> spend;
    private BudgetKeeper keeper;

    @BeforeEach
    void init() {
        Map<String, String> serde = Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);
        spend = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(BudgetStores.SPEND_STORE), Serdes.String(),
                AvroSerde.specific(BudgetState.class).configured(serde, false)).withLoggingDisabled().build();
        KeyValueStore<String, Long> counts = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(
                BudgetStores.ALERT_COUNTS_STORE), Serdes.String(), Serdes.Long()).withLoggingDisabled().build();
        spend.init(context.getStateStoreContext(), spend);
        counts.init(context.getStateStoreContext(), counts);
        context.addStateStore(spend);
        context.addStateStore(counts);
        keeper = new BudgetKeeper(BudgetSettings.of(List.of(DAILY), 4));
        keeper.init(context);
    }

    @AfterEach
    void dropRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    private void charge(String agent, String id, String usd, long time) {
        keeper.process(new Record<>(DAILY.key(agent), new BudgetCharge(id, "task-" + id, Money.toBytes(new BigDecimal(usd))), time));
    }

    @Test
    void crossingsGoToTheAlertSinkAndTheExhaustionOnceToTheStatusSink() {
        for (int i = 1; i <= 12; i++) {
            charge("a1", "r" + i, "0.10", DAY_1 + i);
        }

        assertThat(context.forwarded()).extracting(f -> f.childName().orElseThrow(), f -> f.record().value() instanceof BudgetAlert alert
                        ? alert.getThresholdPercent() : ((BudgetStatus) f.record().value()).getResultId())
                .containsExactly(tuple(BudgetKeeper.ALERTS, 50), tuple(BudgetKeeper.ALERTS, 80), tuple(BudgetKeeper.ALERTS, 100),
                        tuple(BudgetKeeper.STATUS, "r10"));
        KeyValueStore<String, Long> counts = context.getStateStore(BudgetStores.ALERT_COUNTS_STORE);
        assertThat(counts.get("daily\u001f100")).isEqualTo(1L);
    }

    @Test
    void aChargeOlderThanThePreviousPeriodIsNotCountedAndTheSweepDeletesValuesWithNeitherPeriod() {
        charge("a1", "old", "0.10", DAY_1);
        charge("a2", "new", "0.10", DAY_3);
        charge("a2", "late", "0.60", DAY_1);
        context.resetForwards();

        context.setCurrentStreamTimeMs(DAY_3 + 1);
        context.scheduledPunctuators().get(0).getPunctuator().punctuate(DAY_3);

        assertThat(spend.get(DAILY.key("a1"))).isNull();
        assertThat(spend.get(DAILY.key("a2")).getPeriods()).singleElement().satisfies(period -> {
            assertThat(period.getStart()).isEqualTo(DAY_3);
            assertThat(period.getCharges()).isEqualTo(1);
        });
        assertThat(context.forwarded()).singleElement().satisfies(tombstone -> {
            assertThat(tombstone.childName()).hasValue(BudgetKeeper.STATUS);
            assertThat(tombstone.record().key()).isEqualTo(DAILY.key("a1"));
            assertThat(tombstone.record().value()).isNull();
        });
    }
}
