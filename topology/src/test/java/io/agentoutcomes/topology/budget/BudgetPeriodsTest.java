package io.agentoutcomes.topology.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.BudgetPeriod;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BudgetPeriodsTest {
    private static long at(String time) {
        return Instant.parse(time).toEpochMilli();
    }

    @Test
    void aDayRunsFromUtcMidnight() {
        assertThat(BudgetPeriods.start(BudgetPeriod.DAY, at("2026-03-01T23:59:59.999Z"))).isEqualTo(at("2026-03-01T00:00:00Z"));
        assertThat(BudgetPeriods.end(BudgetPeriod.DAY, at("2026-03-01T00:00:00Z"))).isEqualTo(at("2026-03-02T00:00:00Z"));
        assertThat(BudgetPeriods.previous(BudgetPeriod.DAY, at("2026-03-01T00:00:00Z"))).isEqualTo(at("2026-02-28T00:00:00Z"));
    }

    @Test
    void aWeekIsTheIsoWeekFromMonday() {
        // 2026-03-01 is a Sunday: its ISO week began on Monday 2026-02-23
        assertThat(BudgetPeriods.start(BudgetPeriod.WEEK, at("2026-03-01T12:00:00Z"))).isEqualTo(at("2026-02-23T00:00:00Z"));
        assertThat(BudgetPeriods.start(BudgetPeriod.WEEK, at("2026-03-02T00:00:00Z"))).isEqualTo(at("2026-03-02T00:00:00Z"));
        assertThat(BudgetPeriods.end(BudgetPeriod.WEEK, at("2026-02-23T00:00:00Z"))).isEqualTo(at("2026-03-02T00:00:00Z"));
    }

    @Test
    void aMonthRunsFromItsFirstDay() {
        assertThat(BudgetPeriods.start(BudgetPeriod.MONTH, at("2026-02-28T18:00:00Z"))).isEqualTo(at("2026-02-01T00:00:00Z"));
        assertThat(BudgetPeriods.end(BudgetPeriod.MONTH, at("2026-02-01T00:00:00Z"))).isEqualTo(at("2026-03-01T00:00:00Z"));
        assertThat(BudgetPeriods.previous(BudgetPeriod.MONTH, at("2026-03-01T00:00:00Z"))).isEqualTo(at("2026-02-01T00:00:00Z"));
    }
}
