package io.agentoutcomes.app.http;

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
    /**
     * The timeline status of a result type, where a compensatable failure has its own colour: the job failed all
     * the same, but the step waits for a compensation to undo it, which a permanent one does not.
     */
    public enum SegmentStatus {
        OK("ok", "#2e7d32"), RETRYABLE("retryable", "#f9a825"), COMPENSATABLE("compensatable", "#6a1b9a"),
        FAILED("failed", "#c62828");

        private final String label;
        private final String colour;

        SegmentStatus(String label, String colour) {
            this.label = label;
            this.colour = colour;
        }

        public String label() {
            return label;
        }

        public String colour() {
            return colour;
        }

        public static SegmentStatus of(StepResultType type) {
            return switch (type) {
                case SUCCESS -> OK;
                case RETRYABLE_FAILURE -> RETRYABLE;
                case COMPENSATABLE_FAILURE -> COMPENSATABLE;
                case PERMANENT_FAILURE -> FAILED;
            };
        }
    }

    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1a1a1a;max-width:70rem}
            h1{font-size:1.4rem;margin-bottom:.2rem} .muted{color:#666} a{color:#1565c0}
            .status{display:inline-block;padding:.1rem .5rem;border-radius:.3rem;color:#fff;font-size:.85rem}
            .timeline{margin:1.2rem 0 .4rem}
            .lane{display:flex;align-items:center;height:1.6rem;border-bottom:1px solid #f0f0f0}
            .lane-label{width:9rem;flex:none;font-size:.8rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;padding-right:.5rem}
            .track,.axis-track{position:relative;flex:1;height:100%}
            .segment{position:absolute;top:.25rem;bottom:.25rem;min-width:4px;border-radius:.15rem}
            .axis{display:flex;height:1.4rem} .axis-track{border-top:1px solid #999}
            .tick{position:absolute;top:0;font-size:.75rem;color:#555;transform:translateX(-50%);white-space:nowrap;padding-top:.15rem}
            .tick:first-child{transform:none} .tick:last-child{transform:translateX(-100%)}
            .legend span{margin-right:1.2rem} .swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:.2rem;vertical-align:middle;margin-right:.3rem}
            ol.steps{padding-left:1.2rem} ol.steps li{margin:.5rem 0}
            details{border:1px solid #ddd;border-radius:.3rem;padding:.4rem .7rem} summary{cursor:pointer;font-weight:600}
            table{border-collapse:collapse;margin-top:.5rem} td,th{border-bottom:1px solid #eee;padding:.25rem .8rem .25rem 0;text-align:left;font-size:.9rem}
            """;

    private TimelinePage() {
    }

    /** The timeline page of one job. */
    public static String job(JobReplayState state) {
        StringBuilder html = head("Job " + state.getJobId());
        html.append("<p><a href=\"/ui/jobs\">All jobs</a></p>");
        html.append("<h1>Job ").append(escape(state.getJobId())).append("</h1>");
        html.append("<p class=\"muted\">Status <span class=\"status\" id=\"job-status\" style=\"background:")
                .append(JobStatusView.of(state).colour()).append("\">").append(JobStatusView.of(state).label())
                .append("</span>").append(JobStatusView.of(state).compensationBadge())
                .append(" · completed ").append(state.getCompletedNodeIds().size()).append(" of ")
                .append(state.getNodes().size()).append(" nodes · cursor ")
                .append(state.getCursorNode() == null ? "none" : escape(state.getCursorNode())).append("</p>");

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
            html.append("<li class=\"step\" data-node=\"").append(escape(node.getNodeId())).append("\"><details><summary>")
                    .append("Node ").append(escape(node.getNodeId())).append(" · ").append(type)
                    .append(stoppedTitle == null ? "" : " · stopped: " + stoppedTitle).append("</summary>")
                    .append("<table><tr><th>Result type</th><td>").append(type).append("</td></tr>")
                    .append(stopped == null ? "" : "<tr><th>Stopped by the pipeline</th><td class=\"stop-reason\">"
                            + stopped + "</td></tr>")
                    .append("<tr><th>Reason</th><td>").append(latest.getReason() == null ? "—" : escape(latest.getReason()))
                    .append("</td></tr><tr><th>Step index</th><td>")
                    .append(node.getStepIndex() == null ? "—" : node.getStepIndex()).append("</td></tr>")
                    .append("<tr><th>Completed</th><td>").append(node.getCompleted() ? "yes" : "no").append("</td></tr></table>")
                    .append("<table><tr><th>Attempt</th><th>Result type</th><th>Reason</th><th>Duration</th><th>Span</th>")
                    .append("<th>Parent span</th><th>Finished</th><th>Stop</th></tr>");
            for (NodeAttempt attempt : node.getAttempts()) {
                html.append("<tr><td>").append(attempt.getAttempt()).append("</td><td>")
                        .append(attempt.getResultType().name().toLowerCase(Locale.ROOT))
                        .append(attempt.getResultTypeMissing() ? " (no result_type)" : "").append("</td><td>")
                        .append(attempt.getReason() == null ? "—" : escape(attempt.getReason())).append("</td><td>")
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
        StringBuilder html = head("Jobs");
        html.append("<h1>Recent jobs</h1>");
        if (jobs.isEmpty()) {
            return html.append("<p class=\"muted\">No jobs yet: publish node_finished events to see them here.</p></body></html>")
                    .toString();
        }
        html.append("<table id=\"jobs\"><tr><th>Job</th><th>Status</th><th>Completed</th><th>Nodes</th><th>Updated</th></tr>");
        for (JobReplayState job : jobs) {
            html.append("<tr><td><a href=\"/ui/jobs/").append(urlPart(job.getJobId())).append("\">")
                    .append(escape(job.getJobId())).append("</a></td><td>").append(JobStatusView.of(job).html())
                    .append("</td><td>").append(job.getCompletedNodeIds().size()).append("</td><td>")
                    .append(job.getNodes().size()).append("</td><td>")
                    .append(job.getUpdatedAt() == null ? "—" : Instant.ofEpochMilli(job.getUpdatedAt()).toString()).append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    /**
     * A job's status as the pages show it. The replay state's {@code RUNNING} means only that no node failed for good,
     * so a job whose every node has succeeded is shown as completed, not as running. A failed job whose compensation
     * is pending (a compensatable failure fails the job) is shown failed, with a "compensation pending" badge
     * beside it; a state written before that flag existed, with the old status {@code COMPENSATION_PENDING}, is shown
     * the same way.
     */
    record JobStatusView(String label, String colour, String title, boolean compensationPending) {
        private static final String RUNNING_COLOUR = "#1565c0";

        static JobStatusView of(JobReplayState job) {
            return switch (job.getStatus()) {
                case RUNNING -> !job.getNodes().isEmpty() && job.getCompletedNodeIds().size() == job.getNodes().size()
                        ? new JobStatusView("completed", SegmentStatus.OK.colour(), "every node it has reported succeeded", false)
                        : new JobStatusView("running", RUNNING_COLOUR, "no node has failed for good; nodes still to succeed", false);
                case FAILED -> job.getCompensationPending()
                        ? new JobStatusView("failed", SegmentStatus.FAILED.colour(),
                                "a node's compensatable failure failed the job; its compensation is pending", true)
                        : new JobStatusView("failed", SegmentStatus.FAILED.colour(), "a node failed for good", false);
                case COMPENSATION_PENDING -> new JobStatusView("failed", SegmentStatus.FAILED.colour(),
                        "a node's compensatable failure failed the job; its compensation is pending", true);
            };
        }

        /** A coloured badge, and a second one when a compensation is pending. */
        String html() {
            return "<span class=\"status\" data-status=\"" + label + "\" title=\"" + escape(title)
                    + "\" style=\"background:" + colour + "\">" + label + "</span>" + compensationBadge();
        }

        /** The "compensation pending" badge, in the colour of compensatable segments; empty when none is pending. */
        String compensationBadge() {
            return compensationPending ? " <span class=\"status\" data-status=\"compensation_pending\" title=\""
                    + "a node's compensatable failure waits for its compensation\" style=\"background:"
                    + SegmentStatus.COMPENSATABLE.colour() + "\">compensation pending</span>" : "";
        }
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
            html.append("<div class=\"lane\" data-node=\"").append(escape(node.getNodeId())).append("\"><span class=\"lane-label\">")
                    .append(escape(node.getNodeId())).append("</span><div class=\"track\">");
            for (Placed p : placed) {
                if (p.node() != node) {
                    continue;
                }
                SegmentStatus status = SegmentStatus.of(p.attempt().getResultType());
                html.append("<div class=\"segment\" data-node=\"").append(escape(node.getNodeId()))
                        .append("\" data-status=\"").append(status.label()).append("\" style=\"left:")
                        .append(percent(p.start() - from, span)).append(";width:").append(percent(p.end() - p.start(), span))
                        .append(";background:").append(status.colour()).append("\" title=\"")
                        .append(escape(node.getNodeId())).append(" attempt ").append(p.attempt().getAttempt()).append(": ")
                        .append(status.label()).append(", ").append(clock ? clockTime(p.start(), span) + "–" + clockTime(p.end(), span)
                                : elapsed(p.start() - from) + "–" + elapsed(p.end() - from))
                        .append(p.attempt().getDurationMs() == null ? "" : " (" + p.attempt().getDurationMs() + " ms)")
                        .append("\"></div>");
            }
            html.append("</div></div>");
        }
        html.append("<div class=\"axis\"><span class=\"lane-label muted\">").append(clock ? "UTC" : "elapsed")
                .append("</span><div class=\"axis-track\" id=\"time-axis\">");
        for (int tick = 0; tick <= AXIS_TICKS; tick++) {
            long at = from + span * tick / AXIS_TICKS;
            html.append("<span class=\"tick\" style=\"left:").append(percent(at - from, span)).append("\">")
                    .append(clock ? clockTime(at, span) : elapsed(at - from)).append("</span>");
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

    /** Elapsed run time: 0 s, 1.5 s, 2 min 5 s. */
    private static String elapsed(long millis) {
        if (millis < 60_000) {
            return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        return millis / 60_000 + " min " + (millis % 60_000) / 1000 + " s";
    }

    private static StringBuilder head(String title) {
        return new StringBuilder(4096).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(title)).append(" · agent-outcomes</title><style>").append(STYLE).append("</style></head><body>");
    }

    private static String orDash(String text) {
        return text == null ? "—" : escape(text);
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static String urlPart(String text) {
        return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }
}
