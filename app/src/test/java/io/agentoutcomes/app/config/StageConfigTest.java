package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.topology.PipelineSettings;
import io.agentoutcomes.topology.schedule.SchedulerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StageConfigTest {

    @Test
    void withNoSettingsEveryStagesGroupParsesTheStagesOwnDefaults() {
        PipelineSettings parsed = ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).pipeline();
        PipelineSettings defaults = PipelineSettings.defaults();

        assertThat(parsed.retry().backoff()).isEqualTo(defaults.retry().backoff());
        assertThat(parsed.retry().tiers()).isEqualTo(defaults.retry().tiers());
        assertThat(parsed.retry().maxDelay()).isEqualTo(defaults.retry().maxDelay());
        assertThat(parsed.retry().dailyLimit()).isEqualTo(defaults.retry().dailyLimit());
        assertThat(parsed.retry().confidence()).isEqualTo(defaults.retry().confidence());
        assertThat(parsed.retry().fallbacks().isEmpty()).isEqualTo(defaults.retry().fallbacks().isEmpty()).isTrue();
        assertThat(parsed.retry().classifier()).isEqualTo(defaults.retry().classifier());
        assertThat(parsed.scheduler()).isEqualTo(defaults.scheduler());
        assertThat(parsed.taskRetention()).isEqualTo(defaults.taskRetention());
        assertThat(parsed.analytics()).isEqualTo(defaults.analytics());
        assertThat(parsed.replay()).isEqualTo(defaults.replay());
        assertThat(parsed.input()).isEqualTo(defaults.input());
        assertThat(parsed.pricing()).isEqualTo(defaults.pricing());
        assertThat(parsed.providers()).isEqualTo(defaults.providers());
        assertThat(parsed.budgets()).isEqualTo(defaults.budgets());
    }

    @Test
    void aStagesGroupParsesItsOwnSettingsIntoItsOwnPartOfThePipeline() {
        AgentOutcomesConfig config = new AgentOutcomesConfig(Map.of(SchedulerConfig.RETRY_SCHEDULER_INTERVAL_MS, 10L,
                AnalyticsConfig.ANALYTICS_ENABLED, false), Map.of());

        PipelineSettings pipeline = new SchedulerConfig().parseInto(config, PipelineSettings.builder()).build();

        assertThat(pipeline).isEqualTo(PipelineSettings.builder()
                .scheduler(new SchedulerSettings(Duration.ofMillis(10), SchedulerSettings.DEFAULT_MAX_PER_CHECK)).build());
    }

    @Test
    void everySettingAStageDeclaresHasOneOfTheServicesOwnPrefixesSoAMisspellingIsRefused() {
        List<String> stray = new ArrayList<>();
        for (StageConfig<?> stage : AgentOutcomesConfig.STAGES) {
            stage.declare(new Declarations()).configDef().names().stream()
                    .filter(name -> AgentOutcomesConfig.OWN_PREFIXES.keySet().stream().noneMatch(name::startsWith))
                    .forEach(name -> stray.add(stage.getClass().getSimpleName() + ": " + name));
        }

        assertThat(stray).isEmpty();
    }

    @Test
    void theSettingsTableShowsEveryHeadingASettingOrAFamilyIsDeclaredUnder() {
        assertThat(Headings.ORDER).containsAll(AgentOutcomesConfig.CONFIG.groups());
        assertThat(Headings.ORDER).containsAll(AgentOutcomesConfig.FAMILIES.stream().map(SettingFamily::group).toList());
    }
}
