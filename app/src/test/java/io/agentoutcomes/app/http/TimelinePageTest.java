package io.agentoutcomes.app.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.replay.ReplayState;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimelinePageTest {
    private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");

    @Test
    void seed001TheTimelineShowsAJobFailedByThePipelinesStopWithTheStopReasonOnTheNode() {
        JobReplayState state = ReplayState.empty("job-1");
        for (int attempt = 0; attempt < 5; attempt++) {
            state = ReplayState.apply(state, NodeFinished.newBuilder().setJobId("job-1").setNodeId("n1").setAttempt(attempt)
                    .setResultType(StepResultType.RETRYABLE_FAILURE).setReason("timeout").build(), T,
                    attempt == 4 ? StopReason.RETRY_LIMIT : null);
        }

        String html = TimelinePage.job(state);

        assertThat(html).contains(">failed</span>");
        assertThat(html).contains("Node n1 · retryable_failure · stopped: retry_limit</summary>");
        assertThat(html).contains("<th>Stopped by the pipeline</th><td class=\"stop-reason\">retry_limit</td>");
    }
}
