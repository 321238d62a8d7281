package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.avro.BudgetPeriod;
import io.agentoutcomes.topology.classify.DailyLimit;
import io.agentoutcomes.topology.provider.ProviderScope;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Settings whose values are an enum's constants: valid values, messages and parsing all from its values(). */
class EnumWordsTest {
    @Test
    void anEnumsWordsAreItsConstantsInLowerCaseWithDashesInDeclarationOrder() {
        assertThat(EnumWords.words(ProviderScope.By.class)).containsExactly("provider", "provider-model");
        assertThat(EnumWords.words(BudgetPeriod.class)).containsExactly("day", "week", "month");
        assertThat(EnumWords.listed(EnumWords.words(BudgetPeriod.class))).isEqualTo("day, week or month");
        assertThat(EnumWords.of(DailyLimit.class, " Wait ")).isEqualTo(DailyLimit.WAIT);
        assertThatThrownBy(() -> EnumWords.of(ProviderScope.By.class, "model"))
                .hasMessage("expected provider or provider-model, was 'model'");
    }

    @Test
    void aProviderScopeInAnyCaseIsTheScopeItNames() {
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ProviderGateConfig.PROVIDER_SCOPE, "Provider"))
                .pipeline().providers().scope()).isEqualTo(ProviderScope.By.PROVIDER);
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ProviderGateConfig.PROVIDER_SCOPE, "provider-model"))
                .pipeline().providers().scope()).isEqualTo(ProviderScope.By.PROVIDER_MODEL);
        assertThat(ConfigLoader.load(Optional.empty(), Map.of(), Map.of()).pipeline().providers().scope())
                .isEqualTo(ProviderScope.By.PROVIDER_MODEL);
    }

    @Test
    void aSettingOfAnotherWordIsRefusedListingTheEnumsWords() {
        assertThatThrownBy(() -> ConfigLoader.load(Optional.empty(), Map.of(), Map.of(ProviderGateConfig.PROVIDER_SCOPE, "model")))
                .hasMessage("provider.scope is 'model': expected provider or provider-model");
    }
}
