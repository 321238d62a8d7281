package io.agentoutcomes.app.http.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.app.http.query.ProviderHistory.Sample;
import io.agentoutcomes.app.http.query.ProviderHistory.Scope;
import io.agentoutcomes.avro.ProviderState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProviderHistoryTest {
    private final ProviderHistory history = new ProviderHistory(Duration.ofSeconds(10));

    private static ProviderState scope(String provider, String model, long held, long paced) {
        return ProviderState.newBuilder().setProvider(provider).setModel(model).setHeld(held).setPaced(paced).build();
    }

    @Test
    void pacedIsWhatWasReleasedSinceTheSampleBeforeAndUnknownInTheFirst() {
        history.record(0, List.of(scope("openai", "gpt-4o", 0, 100)));
        history.record(10_000, List.of(scope("openai", "gpt-4o", 2, 103)));
        history.record(20_000, List.of(scope("openai", "gpt-4o", 5, 107)));

        assertThat(history.samples("openai", "gpt-4o")).containsExactly(new Sample(0, 0, -1, 100),
                new Sample(10_000, 2, 3, 103), new Sample(20_000, 5, 4, 107));
    }

    @Test
    void aScopeNewSinceTheSampleBeforePacedAllItsCountSince() {
        history.record(0, List.of());
        history.record(10_000, List.of(scope("anthropic", null, 1, 6)));

        assertThat(history.samples("anthropic", null)).containsExactly(new Sample(10_000, 1, 6, 6));
    }

    @Test
    void aCountBelowTheLastIsAScopeBegunAgain() {
        history.record(0, List.of(scope("openai", null, 0, 40)));
        history.record(10_000, List.of(scope("openai", null, 0, 3)));

        assertThat(history.samples("openai", null)).containsExactly(new Sample(0, 0, -1, 40), new Sample(10_000, 0, 3, 3));
    }

    @Test
    void eachScopeKeepsItsLastSixtySamples() {
        for (int i = 0; i < 70; i++) {
            history.record(i * 10_000L, List.of(scope("openai", "gpt-4o", i, i)));
        }

        List<Sample> samples = history.samples("openai", "gpt-4o");
        assertThat(samples).hasSize(ProviderHistory.SAMPLES);
        assertThat(samples.get(0)).isEqualTo(new Sample(100_000, 10, 1, 10));
        assertThat(samples.get(59)).isEqualTo(new Sample(690_000, 69, 1, 69));
    }

    @Test
    void aScopeTheGateForgotIsForgottenHere() {
        history.record(0, List.of(scope("openai", "gpt-4o", 0, 1), scope("openai", "o3", 0, 1)));
        history.record(10_000, List.of(scope("openai", "o3", 0, 1)));

        assertThat(history.scopes()).containsExactly(new Scope("openai", "o3"));
        assertThat(history.samples("openai", "gpt-4o")).isEmpty();
    }
}
