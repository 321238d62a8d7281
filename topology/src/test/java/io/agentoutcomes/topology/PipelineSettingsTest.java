package io.agentoutcomes.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.topology.analytics.AnalyticsSettings;
import io.agentoutcomes.topology.budget.BudgetSettings;
import io.agentoutcomes.topology.classify.RetryPolicy;
import io.agentoutcomes.topology.classify.TaskRetention;
import io.agentoutcomes.topology.ingest.InputLimits;
import io.agentoutcomes.topology.pricing.PricingSettings;
import io.agentoutcomes.topology.provider.ProviderGateSettings;
import io.agentoutcomes.topology.replay.ReplayLimits;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelineSettingsTest {

    @Test
    void aBuilderWithNothingSetHoldsEveryStagesDefaultsAndNoBudgets() {
        assertThat(PipelineSettings.builder().build()).isEqualTo(new PipelineSettings(RetryPolicy.defaults(),
                SchedulerSettings.defaults(), TaskRetention.defaults(), AnalyticsSettings.defaults(), ReplayLimits.defaults(),
                InputLimits.defaults(), PricingSettings.defaults(), ProviderGateSettings.defaults(), BudgetSettings.none()));
        assertThat(PipelineSettings.defaults()).isEqualTo(PipelineSettings.builder().build());
    }

    @Test
    void aStageSetOnTheBuilderChangesThatStageAlone() {
        SchedulerSettings scheduler = new SchedulerSettings(Duration.ofMillis(10), 7);
        ReplayLimits replay = new ReplayLimits(64, 16, 4096);

        PipelineSettings settings = PipelineSettings.builder().scheduler(scheduler).replay(replay).build();

        assertThat(settings).isEqualTo(new PipelineSettings(RetryPolicy.defaults(), scheduler, TaskRetention.defaults(),
                AnalyticsSettings.defaults(), replay, InputLimits.defaults(), PricingSettings.defaults(),
                ProviderGateSettings.defaults(), BudgetSettings.none()));
    }

    @Test
    void toBuilderStartsFromEveryStageOfTheSettingsItCameFrom() {
        PipelineSettings budgeted = PipelineSettings.builder().budgets(BudgetSettings.of(List.of(), 6))
                .input(new InputLimits(2048, Duration.ofSeconds(5))).build();

        PipelineSettings changed = budgeted.toBuilder().providers(ProviderGateSettings.defaults().withEnabled(false)).build();

        assertThat(budgeted.toBuilder().build()).isEqualTo(budgeted);
        assertThat(changed).isEqualTo(new PipelineSettings(RetryPolicy.defaults(), SchedulerSettings.defaults(),
                TaskRetention.defaults(), AnalyticsSettings.defaults(), ReplayLimits.defaults(),
                new InputLimits(2048, Duration.ofSeconds(5)), PricingSettings.defaults(),
                ProviderGateSettings.defaults().withEnabled(false), BudgetSettings.of(List.of(), 6)));
    }
}
