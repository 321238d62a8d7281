package io.agentoutcomes.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MeasuresTest {

    @Test
    void medianAndRangeOfOddAndEvenCounts() {
        assertThat(Measures.medianRange(List.of(3.0, 1.0, 2.0), "%.1f")).isEqualTo("2.0 (1.0–3.0)");
        assertThat(Measures.medianRange(List.of(4.0, 1.0, 2.0, 10.0), "%.1f")).isEqualTo("3.0 (1.0–10.0)");
        assertThat(Measures.medianRange(List.of(), "%.1f")).isEqualTo("-");
    }

    @Test
    void ratiosArePairedRoundByRound() {
        assertThat(Measures.ratios(List.of(10.0, 30.0), List.of(100.0, 60.0))).containsExactly(0.1, 0.5);
    }

    @Test
    void threadsOfOneKindCountTogetherInAProfile() {
        assertThat(JfrProfile.threadGroup("bench-123-4.pipeline-v1a1-r2-0f8fa4b6-7c6e-4b3e-9d3b-1a2b3c4d5e6f-StreamThread-1"))
                .isEqualTo(JfrProfile.threadGroup("bench-999-1.pipeline-v3a1-r1-11111111-2222-3333-4444-555555555555-StreamThread-2"))
                .isEqualTo("bench-#-#.pipeline-v#a#-r#-<id>-StreamThread-#");
    }

    @Test
    void aMatchedPassthroughHasAFillerTopicWheneverThePipelineWritesMoreThanACopy() {
        // a short run's transactions can span no more partitions than the plain copy's: the fillers still need a topic
        // of their own (they went to the counted output topic: "1813 records arrived on matched-out, 1000 expected")
        assertThat(AppUnderTest.extraTopicsFor(new AppUnderTest.WriteProfile(2.22, 337, 3.0),
                new AppUnderTest.WriteProfile(1.0, 108, 3.0), 4)).isEqualTo(1);
        assertThat(AppUnderTest.extraTopicsFor(new AppUnderTest.WriteProfile(1.16, 239, 10.8),
                new AppUnderTest.WriteProfile(1.0, 110, 3.0), 4)).isEqualTo(2);
        assertThat(AppUnderTest.extraTopicsFor(new AppUnderTest.WriteProfile(1.0, 110, 3.0),
                new AppUnderTest.WriteProfile(1.0, 110, 3.0), 4)).isZero();
    }
}
