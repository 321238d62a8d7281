package io.agentoutcomes.app.http.pages;

import io.agentoutcomes.avro.JobReplayState;
import io.agentoutcomes.avro.NodeAttempt;
import io.agentoutcomes.avro.NodeReplay;
import io.agentoutcomes.avro.StepResultType;
import io.agentoutcomes.avro.StopReason;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HTML pages of workflow jobs, self-contained (inline CSS, no script, no CDN): a job's timeline with its step list
 * ("Node n1 · permanent_failure"), a detail panel per step, and timeline segments coloured by status (success → ok,
 * retryable → retryable, compensatable → compensatable, permanent → failed) with a legend and a time axis; and the
 * list of recent jobs.
 */
public final class TimelinePage {
    private TimelinePage() {
    }

    /** The timeline page of one job. */
    public static String job(JobReplayState state) {
        StringBuilder html = Html.head("Job " + state.getJobId() + " · agent-outcomes");
        html.append(Html.NAV);
        html.append("<h1>Job ").append(Html.escape(state.getJobId())).append("</h1>");
        html.append("<p class=\"muted\">Status <span class=\"status\" id=\"job-status\" style=\"background:")
                .append(JobStatusView.of(state).colour()).append("\">").append(JobStatusView.of(state).label())
                .append("</span>").append(JobStatusView.of(state).compensationBadge())
                .append(" · completed ").append(state.getCompletedNodeIds().size()).append(" of ")
                .append(state.getNodes().size()).append(" nodes · cursor ")
                .append(state.getCursorNode() == null ? "none" : Html.escape(state.getCursorNode())).append("</p>");

        html.append(timeline(state));
        html.append("<div class=\"legend\">");
        for (SegmentStatus status : SegmentStatus.values()) {
            html.append("<span data-legend=\"").append(status.label()).append("\"><i class=\"swatch\" style=\"background:")
                    .append(status.colour()).append("\"></i>").append(status.label()).append("</span>");
        }
        html.append("</div>");

        html.append("<h2>Steps</h2><ol class=\"steps\" id=\"steps\">");
        for (NodeReplay node : state.getNodes()) {
            NodeAttempt latest = node.getAttempts().get(node.getAttempts().size() - 1);
            String type = latest.getResultType().name().toLowerCase(Locale.ROOT);
            String stopped = stopLabel(node.getStopReason());
            // A permanent or compensatable failure is final by its type; the pipeline's stop only changes what a
            // retryable one means, so only there it joins the step's title.
            String stoppedTitle = latest.getResultType() == StepResultType.RETRYABLE_FAILURE ? stopped : null;
            html.append("<li class=\"step\" data-node=\"").append(Html.escape(node.getNodeId())).append("\"><details><summary>")
                    .append("Node ").append(Html.escape(node.getNodeId())).append(" · ").append(type)
                    .append(stoppedTitle == null ? "" : " · stopped: " + stoppedTitle).append("</summary>")
                    .append("<table><tr><th>Result type</th><td>").append(type).append("</td></tr>")
                    .append(stopped == null ? "" : "<tr><th>Stopped by the pipeline</th><td class=\"stop-reason\">"
                            + stopped + "</td></tr>")
                    .append("<tr><th>Reason</th><td>").append(latest.getReason() == null ? "—" : Html.escape(latest.getReason()))
                    .append("</td></tr><tr><th>Step index</th><td>")
                    .append(node.getStepIndex() == null ? "—" : node.getStepIndex()).append("</td></tr>")
                    .append("<tr><th>Completed</th><td>").append(node.getCompleted() ? "yes" : "no").append("</td></tr></table>")
                    .append("<table><tr><th>Attempt</th><th>Result type</th><th>Reason</th><th>Duration</th><th>Span</th>")
                    .append("<th>Parent span</th><th>Finished</th><th>Stop</th></tr>");
            for (NodeAttempt attempt : node.getAttempts()) {
                // the attempt the pipeline stopped the node at, coloured apart from the ones it retried
                html.append(attempt.getStopReason() == null ? "<tr><td>" : "<tr class=\"stopping\"><td>")
                        .append(attempt.getAttempt()).append("</td><td>")
                        .append(attempt.getResultType().name().toLowerCase(Locale.ROOT))
                        .append(attempt.getResultTypeMissing() ? " (no result_type)" : "").append("</td><td>")
                        .append(attempt.getReason() == null ? "—" : Html.escape(attempt.getReason())).append("</td><td>")
                        .append(attempt.getDurationMs() == null ? "—" : attempt.getDurationMs() + " ms").append("</td><td>")
                        .append(orDash(attempt.getTraceSpanId())).append("</td><td>").append(orDash(attempt.getParentSpanId()))
                        .append("</td><td>").append(attempt.getFinishedAtMs() == null ? "—"
                                : Instant.ofEpochMilli(attempt.getFinishedAtMs()).toString()).append("</td><td>")
                        .append(orDash(stopLabel(attempt.getStopReason()))).append("</td></tr>");
            }
            html.append("</table></details></li>");
        }
        html.append("</ol>");
        return html.append("</body></html>").toString();
    }

    /** A stop reason as the events spell it ({@code retry_limit}, {@code error}), or null. */
    private static String stopLabel(StopReason stop) {
        return stop == null ? null : stop.name().toLowerCase(Locale.ROOT);
    }

    /** The list of recent jobs. */
    public static String jobs(List<JobReplayState> jobs) {
        StringBuilder html = Html.head("Jobs · agent-outcomes");
        html.append("<h1>Recent jobs</h1>").append(Html.NAV);
        if (jobs.isEmpty()) {
            return html.append("<p class=\"muted\">No jobs yet: publish node_finished events to see them here.</p></body></html>")
                    .toString();
        }
        html.append("<table id=\"jobs\"><tr><th>Job</th><th>Status</th><th>Completed</th><th>Nodes</th><th>Updated</th></tr>");
        for (JobReplayState job : jobs) {
            html.append("<tr><td><a href=\"/ui/jobs/").append(Html.urlPart(job.getJobId())).append("\">")
                    .append(Html.escape(job.getJobId())).append("</a></td><td>").append(JobStatusView.of(job).html())
                    .append("</td><td>").append(job.getCompletedNodeIds().size()).append("</td><td>")
                    .append(job.getNodes().size()).append("</td><td>")
                    .append(job.getUpdatedAt() == null ? "—" : Instant.ofEpochMilli(job.getUpdatedAt()).toString()).append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    /** One attempt on the timeline: where it starts and ends on the axis, in milliseconds. */
    private record Placed(NodeReplay node, NodeAttempt attempt, long start, long end) {
    }

    /**
     * The timeline: a lane per node, each attempt a segment placed on a time axis. With the runner's finish times
     * (every attempt has one), the axis is clock time (UTC), an attempt drawn from its finish minus its duration to
     * its finish; without them, attempts follow one another in step order by their durations, on an axis of elapsed
     * run time, and the page says so.
     */
    static String timeline(JobReplayState state) {
        List<Placed> placed = new ArrayList<>();
        boolean clock = state.getNodes().stream().flatMap(n -> n.getAttempts().stream())
                .allMatch(a -> a.getFinishedAtMs() != null);
        long cursor = 0;
        for (NodeReplay node : state.getNodes()) {
            for (NodeAttempt attempt : node.getAttempts()) {
                long duration = attempt.getDurationMs() == null ? 0 : Math.max(0, attempt.getDurationMs());
                if (clock) {
                    placed.add(new Placed(node, attempt, attempt.getFinishedAtMs() - duration, attempt.getFinishedAtMs()));
                } else {
                    placed.add(new Placed(node, attempt, cursor, cursor + duration));
                    cursor += duration;
                }
            }
        }
        long from = placed.stream().mapToLong(Placed::start).min().orElse(0);
        long to = placed.stream().mapToLong(Placed::end).max().orElse(0);
        long span = Math.max(1, to - from);
        StringBuilder html = new StringBuilder("<div class=\"timeline\" id=\"timeline\" data-axis=\"")
                .append(clock ? "clock" : "elapsed").append("\">");
        for (NodeReplay node : state.getNodes()) {
            html.append("<div class=\"lane\" data-node=\"").append(Html.escape(node.getNodeId())).append("\"><span class=\"lane-label\">")
                    .append(Html.escape(node.getNodeId())).append("</span><div class=\"track\">");
            for (Placed p : placed) {
                if (p.node() != node) {
                    continue;
                }
                SegmentStatus status = SegmentStatus.of(p.attempt().getResultType());
                html.append("<div class=\"segment\" data-node=\"").append(Html.escape(node.getNodeId()))
                        .append("\" data-status=\"").append(status.label()).append("\" style=\"left:")
                        .append(percent(p.start() - from, span)).append(";width:").append(percent(p.end() - p.start(), span))
                        .append(";background:").append(status.colour()).append("\" title=\"")
                        .append(Html.escape(node.getNodeId())).append(" attempt ").append(p.attempt().getAttempt()).append(": ")
                        .append(status.label()).append(", ").append(clock ? clockTime(p.start(), span) + "–" + clockTime(p.end(), span)
                                : elapsed(p.start() - from, span) + "–" + elapsed(p.end() - from, span))
                        .append(p.attempt().getDurationMs() == null ? "" : " (" + p.attempt().getDurationMs() + " ms)")
                        .append("\"></div>");
            }
            html.append("</div></div>");
        }
        html.append("<div class=\"axis\"><span class=\"lane-label muted\">").append(clock ? "UTC" : "elapsed")
                .append("</span><div class=\"axis-track\" id=\"time-axis\">");
        String previous = null;
        for (int tick = 0; tick <= AXIS_TICKS; tick++) {
            long at = from + span * tick / AXIS_TICKS;
            String label = clock ? clockTime(at, span) : elapsed(at - from, span);
            if (label.equals(previous)) {
                // a span of a few milliseconds: ticks closer than the labels' precision are drawn once
                continue;
            }
            previous = label;
            html.append("<span class=\"tick\" style=\"left:").append(percent(at - from, span)).append("\">")
                    .append(label).append("</span>");
        }
        html.append("</div></div>");
        if (!clock) {
            html.append("<p class=\"muted\" id=\"axis-note\">These events carry no finish times: attempts are drawn one after "
                    + "another in step order, by their durations.</p>");
        }
        return html.append("</div>").toString();
    }

    private static final int AXIS_TICKS = 4;

    private static String percent(long part, long whole) {
        return String.format(Locale.ROOT, "%.3f%%", 100.0 * part / whole);
    }

    /** A time of day in UTC, to the millisecond when the timeline spans less than 10 s. */
    private static String clockTime(long epochMillis, long span) {
        return DateTimeFormatter.ofPattern(span < 10_000 ? "HH:mm:ss.SSS" : "HH:mm:ss").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(epochMillis));
    }

    /** Elapsed run time: 0 s, 1.5 s, 2 min 5 s; in milliseconds when the timeline spans less than a second (75 ms). */
    private static String elapsed(long millis, long span) {
        if (span < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        return millis / 60_000 + " min " + (millis % 60_000) / 1000 + " s";
    }

    private static String orDash(String text) {
        return text == null ? "—" : Html.escape(text);
    }
}
