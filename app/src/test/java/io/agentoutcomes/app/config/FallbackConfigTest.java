package io.agentoutcomes.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.topology.fallback.FallbackChains;
import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FallbackConfigTest {
    private static FallbackChains load(Map<String, String> settings) {
        return ConfigLoader.load(Optional.empty(), Map.of(), settings).pipeline().retry().fallbacks();
    }

    @Test
    void withoutChainsThereAreNone() {
        assertThat(load(Map.of()).isEmpty()).isTrue();
    }

    @Test
    void chainsOfBothKindsAreDeclaredByTheirSettingsAModelSplitAtItsFirstSlash() {
        FallbackChains chains = load(Map.of("fallback.openai/gpt-4o", "anthropic/claude-sonnet-4, openrouter/meta-llama/llama-3.3-70b",
                "fallback.context.openai/gpt-4o-mini", "openai/gpt-4.1"));

        assertThat(chains.all(Kind.GENERAL)).containsExactly(new Chain(Kind.GENERAL, new Model("openai", "gpt-4o"),
                List.of(new Model("anthropic", "claude-sonnet-4"), new Model("openrouter", "meta-llama/llama-3.3-70b"))));
        assertThat(chains.all(Kind.CONTEXT)).extracting(Chain::setting)
                .containsExactly("fallback.context.openai/gpt-4o-mini=openai/gpt-4.1");
    }

    @Test
    void aChainThatLoopsIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("fallback.a/x", "b/y", "fallback.b/y", "a/x")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("fallback.a/x=b/y: loops back to a/x through fallback.a/x=b/y then fallback.b/y=a/x");
        assertThatThrownBy(() -> load(Map.of("fallback.context.a/x", "b/y,a/x")))
                .hasMessage("fallback.context.a/x=b/y,a/x: loops, a/x is named twice or is the model itself");
    }

    @Test
    void aChainLongerThanFiveIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("fallback.a/x", "b/1,b/2,b/3,b/4,b/5,b/6")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("fallback.a/x=b/1,b/2,b/3,b/4,b/5,b/6: a chain names 1 to 5 models, this one 6");
    }

    @Test
    void unknownSyntaxIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> load(Map.of("fallback.openai", "anthropic/claude-sonnet-4")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("fallback.openai: its name must be fallback.<provider>/<model>, anthropic/claude-sonnet-4 (no '/' in 'openai')");
        assertThatThrownBy(() -> load(Map.of("fallback.openai/gpt-4o", "anthropic")))
                .hasMessage("fallback.openai/gpt-4o: its value must be a list of <provider>/<model>, e.g. anthropic/claude-sonnet-4 "
                        + "(no '/' in 'anthropic')");
        assertThatThrownBy(() -> load(Map.of("fallback.openai/gpt-4o", "anthropic/claude-sonnet-4,")))
                .hasMessage("fallback.openai/gpt-4o: its value must be a list of <provider>/<model>, e.g. anthropic/claude-sonnet-4 "
                        + "(no '/' in '')");
        assertThatThrownBy(() -> load(Map.of("fallback.openai/", "anthropic/claude-sonnet-4")))
                .hasMessage("fallback.openai/: its name must be fallback.<provider>/<model>, anthropic/claude-sonnet-4 "
                        + "(a model name of 1 to 128 characters, was '')");
    }
}
