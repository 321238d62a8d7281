package io.agentoutcomes.app.http.pages;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeFinished;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import io.agentoutcomes.topology.replay.ReplayState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        // the attempt it was stopped at is coloured apart from the four it retried (issue 32)
        assertThat(html.split("<tr class=\"stopping\"><td>", -1)).hasSize(2);
        assertThat(html).contains("<tr class=\"stopping\"><td>4</td>").contains("<tr><td>3</td>");
        // and the page links back to the dashboard and the jobs list
        assertThat(html).contains("<nav class=\"pages\"><a href=\"/\">Dashboard</a><a href=\"/ui/jobs\">Jobs</a>");
        assertThat(TimelinePage.jobs(List.of(state))).contains("<a href=\"/\">Dashboard</a>", "<a href=\"/ui/jobs/job-1\">");
    }

    private static JobReplayState job(NodeFinished... events) {
        JobReplayState state = ReplayState.empty("job-1");
        for (NodeFinished event : events) {
            state = ReplayState.apply(state, event, T, null);
        }
        return state;
    }

    private static NodeFinished.Builder node(String id, int step, StepResultType type) {
        return NodeFinished.newBuilder().setJobId("job-1").setNodeId(id).setStepIndex(step).setAttempt(0).setResultType(type);
    }

    @Test
    void aCompensatableStepHasItsOwnColourNotTheRedOfAFailure() {
        String html = TimelinePage.job(job(node("n1", 1, StepResultType.SUCCESS).build(),
                node("n2", 2, StepResultType.COMPENSATABLE_FAILURE).setReason("half written").build()));

        assertThat(html).contains("data-status=\"compensatable\" style=\"left:", "data-legend=\"compensatable\"")
                .doesNotContain("data-status=\"failed\"").doesNotContain(";background:#c62828");
        // Seed 001 §3: the job failed; the pending compensation is shown beside that status, not as one.
        assertThat(html).contains("id=\"job-status\" style=\"background:#c62828\">failed</span> <span class=\"status\" "
                + "data-status=\"compensation_pending\"", ">compensation pending</span>");
        assertThat(TimelinePage.jobs(List.of(job(node("n2", 2, StepResultType.COMPENSATABLE_FAILURE).build()))))
                .contains("data-status=\"failed\"", "data-status=\"compensation_pending\"");
    }

    @Test
    void aJobWhoseEveryNodeSucceededIsListedAsCompletedNotAsARunningJob() {
        JobReplayState done = job(node("n1", 1, StepResultType.SUCCESS).build(), node("n2", 2, StepResultType.SUCCESS).build());
        JobReplayState running = job(node("n1", 1, StepResultType.SUCCESS).build(),
                node("n2", 2, StepResultType.RETRYABLE_FAILURE).build());

        String list = TimelinePage.jobs(List.of(done));

        assertThat(list).contains("data-status=\"completed\"").doesNotContain(">running<");
        assertThat(TimelinePage.job(done)).contains("id=\"job-status\" style=\"background:#2e7d32\">completed</span>");
        assertThat(TimelinePage.jobs(List.of(running))).contains(">running</span>").doesNotContain("#2e7d32\">running");
    }

    @Test
    void theTimelineHasAClockAxisWhenTheEventsCarryFinishTimes() {
        String html = TimelinePage.job(job(
                node("n1", 1, StepResultType.SUCCESS).setDurationMs(2000L).setTimestamp(T.plusSeconds(2).toEpochMilli()).build(),
                node("n2", 2, StepResultType.SUCCESS).setDurationMs(1000L).setTimestamp(T.plusSeconds(5).toEpochMilli()).build()));

        assertThat(html).contains("data-axis=\"clock\"", ">UTC</span>", "id=\"time-axis\"");
        assertThat(ticks(html)).containsExactly("12:00:00.000", "12:00:01.250", "12:00:02.500", "12:00:03.750", "12:00:05.000");
        assertThat(html).contains("data-node=\"n2\" data-status=\"ok\" style=\"left:80.000%;width:20.000%");
    }

    @Test
    void withoutFinishTimesTheAxisIsElapsedRunTimeAndThePageSaysSo() {
        String html = TimelinePage.job(job(node("n1", 1, StepResultType.SUCCESS).setDurationMs(800L).build(),
                node("n2", 2, StepResultType.RETRYABLE_FAILURE).setDurationMs(1200L).build()));

        assertThat(html).contains("data-axis=\"elapsed\"", "id=\"axis-note\"");
        assertThat(ticks(html)).containsExactly("0 s", "0.5 s", "1 s", "1.5 s", "2 s");
        assertThat(html).contains("data-node=\"n2\" data-status=\"retryable\" style=\"left:40.000%;width:60.000%");
    }

    /** Issue 32: no tick label twice, however short the run: under a second the elapsed axis counts milliseconds. */
    @Test
    void aShortTimelineRepeatsNoTickLabel() {
        String elapsed = TimelinePage.job(job(node("n1", 1, StepResultType.SUCCESS).setDurationMs(100L).build(),
                node("n2", 2, StepResultType.SUCCESS).setDurationMs(200L).build()));
        String clock = TimelinePage.job(job(
                node("n1", 1, StepResultType.SUCCESS).setDurationMs(0L).setTimestamp(T.toEpochMilli()).build(),
                node("n2", 2, StepResultType.SUCCESS).setDurationMs(0L).setTimestamp(T.toEpochMilli() + 2).build()));

        assertThat(ticks(elapsed)).containsExactly("0 ms", "75 ms", "150 ms", "225 ms", "300 ms");
        assertThat(ticks(clock)).containsExactly("12:00:00.000", "12:00:00.001", "12:00:00.002");
    }

    private static List<String> ticks(String html) {
        Matcher tick = Pattern.compile("class=\"tick\"[^>]*>([^<]*)<").matcher(html);
        List<String> ticks = new ArrayList<>();
        while (tick.find()) {
            ticks.add(tick.group(1));
        }
        return ticks;
    }
}
