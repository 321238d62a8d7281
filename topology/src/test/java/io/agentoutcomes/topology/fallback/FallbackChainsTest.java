package io.agentoutcomes.topology.fallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentoutcomes.topology.fallback.FallbackChains.Chain;
import io.agentoutcomes.topology.fallback.FallbackChains.Kind;
import io.agentoutcomes.topology.fallback.FallbackChains.Model;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FallbackChainsTest {
    private static Chain chain(Kind kind, String from, String... to) {
        String[] parts = from.split("/");
        return new Chain(kind, new Model(parts[0], parts[1]), Arrays.stream(to)
                .map(m -> new Model(m.split("/")[0], m.split("/")[1])).toList());
    }

    @Test
    void aChainIsFoundByItsModelTrimmedAndInLowerCase() {
        FallbackChains chains = new FallbackChains(List.of(chain(Kind.GENERAL, "OpenAI/GPT-4o", "anthropic/claude-sonnet-4")));

        assertThat(chains.chain(Kind.GENERAL, " openai ", "gpt-4o")).get().extracting(Chain::setting)
                .isEqualTo("fallback.openai/gpt-4o=anthropic/claude-sonnet-4");
        assertThat(chains.chain(Kind.CONTEXT, "openai", "gpt-4o")).isEmpty();
        assertThat(chains.chain(Kind.GENERAL, "openai", null)).isEmpty();
    }

    @Test
    void aChainThatLeadsBackThroughAnotherIsRefusedNamingBothSettings() {
        assertThatThrownBy(() -> new FallbackChains(List.of(chain(Kind.GENERAL, "a/x", "b/y"), chain(Kind.GENERAL, "b/y", "c/z", "a/x"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fallback.a/x=b/y: loops back to a/x through fallback.a/x=b/y then fallback.b/y=c/z,a/x");
    }

    @Test
    void aChainNamingItsOwnModelOrOneModelTwiceIsRefused() {
        assertThatThrownBy(() -> new FallbackChains(List.of(chain(Kind.CONTEXT, "a/x", "b/y", "a/x"))))
                .hasMessage("fallback.context.a/x=b/y,a/x: loops, a/x is named twice or is the model itself");
        assertThatThrownBy(() -> new FallbackChains(List.of(chain(Kind.GENERAL, "a/x", "b/y", "b/y"))))
                .hasMessage("fallback.a/x=b/y,b/y: loops, b/y is named twice or is the model itself");
    }

    @Test
    void aChainLongerThanTheBoundIsRefused() {
        assertThatThrownBy(() -> new FallbackChains(List.of(chain(Kind.GENERAL, "a/x", "b/1", "b/2", "b/3", "b/4", "b/5", "b/6"))))
                .hasMessage("fallback.a/x=b/1,b/2,b/3,b/4,b/5,b/6: a chain names 1 to 5 models, this one 6");
    }

    @Test
    void chainsOfDifferentKindsMayLeadBackToEachOther() {
        // cheaper when the large model's circuit is open, larger when the small one's context is exceeded
        FallbackChains chains = new FallbackChains(List.of(chain(Kind.GENERAL, "openai/gpt-4.1", "openai/gpt-4.1-mini"),
                chain(Kind.CONTEXT, "openai/gpt-4.1-mini", "openai/gpt-4.1")));

        assertThat(chains.all(Kind.GENERAL)).hasSize(1);
        assertThat(chains.all(Kind.CONTEXT)).hasSize(1);
    }
}
