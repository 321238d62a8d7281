package io.agentoutcomes.topology.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.AgentMetrics;
import io.agentoutcomes.avro.AgentResult;
import io.agentoutcomes.avro.ClassifiedOutcome;
import io.agentoutcomes.avro.ExecutionMetadata;
import io.agentoutcomes.avro.ResultType;
import io.agentoutcomes.avro.Success;
import io.agentoutcomes.avro.Usage;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GenAiHistogramsTest {
    private static final Dimensions KEY = Dimensions.of("agent", "model", "provider");

    @Test
    void aValueCountsInTheFirstBucketWhoseBoundItIsAtOrBelow() {
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 0)).isZero();
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 1)).isZero();
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 2)).isEqualTo(1);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 4)).isEqualTo(1);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 5)).isEqualTo(2);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 67_108_864)).isEqualTo(13);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.TOKEN_BOUNDS, 67_108_865)).isEqualTo(14);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.DURATION_BOUNDS_MS, 81_920)).isEqualTo(13);
        assertThat(GenAiHistograms.bucket(GenAiHistograms.DURATION_BOUNDS_MS, 81_921)).isEqualTo(14);
    }

    @Test
    void eachResultCountsOnceByTypeAndFailuresByErrorTypeWithTheirSums() {
        AgentMetrics metrics = LivePartial.of(KEY)
                .add(outcome(Usage.newBuilder().setInputTokens(100L).setCacheReadTokens(1_000L).setOutputTokens(7L).build(),
                        1_200L, ResultType.SUCCESS, null))
                .add(outcome(Usage.newBuilder().setTotalTokens(42L).build(), 90_000L, ResultType.RETRYABLE_FAILURE,
                        "RATE_LIMITED"))
                .add(outcome(Usage.newBuilder().build(), 5L, ResultType.PERMANENT_FAILURE, null))
                .toMetrics();

        assertThat(metrics.getGenAiHistograms()).isEqualTo(Map.ofEntries(
                Map.entry("token|input|6", 1L), Map.entry("token_sum|input", 1_100L),
                Map.entry("token|output|2", 1L), Map.entry("token_sum|output", 7L),
                Map.entry("token|unknown|3", 1L), Map.entry("token_sum|unknown", 42L),
                Map.entry("duration||7", 1L), Map.entry("duration_ms|", 1_200L),
                Map.entry("duration|RATE_LIMITED|14", 1L), Map.entry("duration_ms|RATE_LIMITED", 90_000L),
                Map.entry("duration|_OTHER|0", 1L), Map.entry("duration_ms|_OTHER", 5L)));
        assertThat(metrics.getGenAiHistograms().get("token_sum|input") + metrics.getGenAiHistograms().get("token_sum|output")
                + metrics.getGenAiHistograms().get("token_sum|unknown")).isEqualTo(metrics.getTotalTokens());
    }

    @Test
    void partialsMergeToWhatOnePartialOfAllTheResultsHolds() {
        ClassifiedOutcome a = outcome(Usage.newBuilder().setInputTokens(3L).setOutputTokens(300L).build(), 50L,
                ResultType.SUCCESS, null);
        ClassifiedOutcome b = outcome(Usage.newBuilder().setInputTokens(5_000L).setOutputTokens(2L).build(), 30L,
                ResultType.RETRYABLE_FAILURE, "TIMEOUT");

        AgentMetrics merged = MetricsAggregator.merge(LivePartial.of(KEY).add(a).toMetrics(),
                LivePartial.of(KEY).add(b).add(a).toMetrics());

        assertThat(merged.getGenAiHistograms()).isEqualTo(LivePartial.of(KEY).add(a).add(b).add(a).toMetrics()
                .getGenAiHistograms());
        assertThat(merged.getGenAiHistograms()).containsEntry("token|input|1", 2L).containsEntry("token_sum|input", 5_006L)
                .containsEntry("duration|TIMEOUT|2", 1L).containsEntry("duration_ms|", 100L);
    }

    private static ClassifiedOutcome outcome(Usage usage, long durationMs, ResultType type, String errorCode) {
        AgentResult result = AgentResult.newBuilder().setResultId("r").setAgentId("agent").setTaskId("t")
                .setExecution(ExecutionMetadata.newBuilder().setModel("model").setProvider("provider").setUsage(usage)
                        .setDurationMs(durationMs).build())
                .setOutcome(Success.newBuilder().build()).build();
        return ClassifiedOutcome.newBuilder().setTaskId("t").setResultId("r").setAttempt(0).setResultType(type)
                .setErrorCode(errorCode).setReason("r").setClassifiedAt(0L).setRetryCount(0).setAgentResult(result).build();
    }
}
