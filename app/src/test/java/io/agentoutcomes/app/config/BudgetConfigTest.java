package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.topology.analytics.Dimension;
import io.agentoutcomes.topology.budget.Budget;
import io.agentoutcomes.topology.budget.BudgetSettings;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BudgetConfigTest {
    private static AppConfig load(Map<String, String> settings) {
        return ConfigLoader.load(Optional.empty(), Map.of(), settings);
    }

    @Test
    void withNoBudgetDeclaredThereAreNoBudgets() {
        assertThat(load(Map.of()).pipeline().budgets().enabled()).isFalse();
        assertThat(load(Map.of("topic.partitions", "6")).pipeline().budgets()).isEqualTo(BudgetSettings.of(List.of(), 6));
    }

    @Test
    void aBudgetIsDeclaredByItsFamilyOfSettingsWithDefaultsForPeriodThresholdsAndStopRetries() {
        BudgetSettings budgets = load(Map.of("budget.acme-daily.dimension", "agent", "budget.acme-daily.value", "acme",
                "budget.acme-daily.limit.usd", "25", "budget.models.dimension", "model", "budget.models.period", "week",
                "budget.models.limit.usd", "0.50", "budget.models.thresholds", "90, 100", "budget.models.stop-retries", "true",
                "topic.partitions", "6")).pipeline().budgets();

        assertThat(budgets.partitions()).isEqualTo(6);
        assertThat(budgets.budget("acme-daily")).isEqualTo(new Budget("acme-daily", Dimension.AGENT, "acme", BudgetPeriod.DAY,
                new BigDecimal("25"), List.of(50, 80, 100), false));
        assertThat(budgets.budget("models")).isEqualTo(new Budget("models", Dimension.MODEL, null, BudgetPeriod.WEEK,
                new BigDecimal("0.50"), List.of(90, 100), true));
        assertThat(budgets.stopsRetries()).isTrue();
    }

    @Test
    void badDeclarationsAreRefusedSayingWhatIsWrong() {
        assertThatThrownBy(() -> load(Map.of("budget.b.limit.usd", "5")))
                .hasMessage("budget.b.dimension must be set: " + Dimension.labels());
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "planet", "budget.b.limit.usd", "5")))
                .hasMessage("budget.b.dimension must be " + Dimension.labels() + ", was 'planet'");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent")))
                .hasMessage("budget.b.limit.usd must be set to an amount of US dollars above 0, e.g. 25 or 0.50, was ''");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent", "budget.b.limit.usd", "-1")))
                .hasMessage("budget.b.*: budget b needs a limit above 0 USD with at most 12 decimals, was -1");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent", "budget.b.limit.usd", "1", "budget.b.period", "year")))
                .hasMessage("budget.b.period must be day, week or month, was 'year'");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent", "budget.b.limit.usd", "1", "budget.b.thresholds", "half")))
                .hasMessage("budget.b.thresholds must be percentages of the limit, e.g. 50,80,100, was 'half'");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent", "budget.b.limit.usd", "1", "budget.b.stop-retries", "yes")))
                .hasMessage("budget.b.stop-retries must be true or false, was 'yes'");
        assertThatThrownBy(() -> load(Map.of("budget.b.dimension", "agent", "budget.b.limit.usd", "1", "budget.b.limit", "1")))
                .hasMessage("Unknown setting budget.b.limit (see docs/analytics.md)");
        assertThatThrownBy(() -> load(Map.of("budget.a.b.dimension", "agent", "budget.a.b.limit.usd", "1")))
                .hasMessage("Budget name 'a.b' (budget.a.b.*) must not contain dots");
    }
}
